/* Sequence files (issue 31): many scenes rendered as one video by `murmur
 * render SEQ.yaml`. A sequence of cuts is its parts' renders joined frame
 * for frame (decoded frame hashes of lossless renders, so the encoder's
 * segments cannot differ), with the parts' chapters and captions shifted to
 * where they play; bad sequences exit 2 naming their line, nothing written. */
#include <libavformat/avformat.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "decode.h"
#include "harness.h"

/* Scene NAME in the scratch folder: its seed, background, length and timeline. */
static void part(const char *name, int seed, const char *background, const char *duration, const char *more)
{
    char text[2048];
    snprintf(text, sizeof text,
             "title: %s\nseed: %d\nmodel: wrkspc\nworld: {width: 240, height: 160, boundary: wrap}\n"
             "flock: {count: 60, noise: 0.02}\n"
             "video: {width: 160, height: 108, fps: 24, duration: %s, quality: 0}\n"
             "look: {background: \"%s\", boid: {shape: arrow, size: 6, color: heading}}\n%s",
             name, seed, duration, background, more ? more : "");
    write_file(scratch_path(name), text);
}

/* The two parts every test here uses: a.yaml (3 s, two chapters, two
 * captions) and b.yaml (4 s, one chapter at 0.5 s, one caption). */
static void parts(void)
{
    part("a.yaml", 3, "#204060", "3s",
         "timeline:\n  - {at: 0s, chapter: One, caption: {text: first, for: 1s}}\n"
         "  - {at: 2s, chapter: \"One b\", caption: {text: again, for: 0.5s}}\n");
    part("b.yaml", 4, "#402020", "4s", "timeline:\n  - {at: 0.5s, chapter: Two, caption: {text: second, for: 1s}}\n");
}

typedef struct {
    int n;
    long long start[16], end[16];
    char title[16][64];
} chapters;

static int read_chapters(const char *path, chapters *out)
{
    memset(out, 0, sizeof *out);
    AVFormatContext *fc = NULL;
    if (avformat_open_input(&fc, path, NULL, NULL) < 0)
        return -1;
    for (unsigned i = 0; i < fc->nb_chapters && i < 16; i++) {
        AVChapter *c = fc->chapters[i];
        out->start[i] = av_rescale_q(c->start, c->time_base, (AVRational){1, 1000});
        out->end[i] = av_rescale_q(c->end, c->time_base, (AVRational){1, 1000});
        AVDictionaryEntry *t = av_dict_get(c->metadata, "title", NULL, 0);
        snprintf(out->title[i], sizeof out->title[i], "%s", t ? t->value : "");
        out->n++;
    }
    avformat_close_input(&fc);
    return 0;
}

/* The cues of a .srt: start and end in ms and text; returns how many (at most 16). */
static int read_srt(const char *path, long long *start, long long *end, char text[][64])
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    char line[256];
    int n = 0, h1, m1, s1, ms1, h2, m2, s2, ms2;
    while (fgets(line, sizeof line, fp) && n < 16)
        if (sscanf(line, "%d:%d:%d,%d --> %d:%d:%d,%d", &h1, &m1, &s1, &ms1, &h2, &m2, &s2, &ms2) == 8) {
            start[n] = ((h1 * 60LL + m1) * 60 + s1) * 1000 + ms1;
            end[n] = ((h2 * 60LL + m2) * 60 + s2) * 1000 + ms2;
            if (!fgets(text[n], 64, fp))
                text[n][0] = 0;
            text[n][strcspn(text[n], "\n")] = 0;
            n++;
        }
    fclose(fp);
    return n;
}

/* A scratch path of its own (scratch_path's buffers rotate by 8): freed at exit. */
static const char *path_of(const char *name)
{
    static char bufs[32][256];
    static int k;
    char *b = bufs[k++ % 32];
    snprintf(b, 256, "%s", scratch_path(name));
    return b;
}

static int render(const char *args, char *err, size_t n)
{
    char full[2048];
    snprintf(full, sizeof full, "render %s -q --preset ultrafast", args);
    return murmur(full, err, n);
}

TEST(a_sequence_of_two_scenes_is_their_renders_joined)
{
    parts();
    write_file(scratch_path("seq.yaml"), "title: Both\nsequence:\n  - scene: a.yaml\n"
                                         "  - {scene: b.yaml, from: 1s, to: 3s}\n");
    char args[1024], err[4096];
    const char *whole = path_of("seq.mp4"), *a = path_of("a.mp4"), *b = path_of("b.mp4");
    snprintf(args, sizeof args, "%s -o %s --subtitles", scratch_path("seq.yaml"), whole);
    REQUIRE(render(args, err, sizeof err) == 0, "sequence: %s", err);
    snprintf(args, sizeof args, "%s -o %s --subtitles", scratch_path("a.yaml"), a);
    REQUIRE(render(args, err, sizeof err) == 0, "a: %s", err);
    snprintf(args, sizeof args, "%s -o %s --from 1s --to 3s --subtitles", scratch_path("b.yaml"), b);
    REQUIRE(render(args, err, sizeof err) == 0, "b: %s", err);
    test_video_info iw, ia, ib;
    REQUIRE(!test_video_probe(whole, &iw) && !test_video_probe(a, &ia) && !test_video_probe(b, &ib), "probe");
    CHECK(ia.frames == 72 && ib.frames == 48 && iw.frames == 120, "frames %d + %d -> %d, want 72 + 48 = 120",
          ia.frames, ib.frames, iw.frames);
    uint64_t ha = test_video_hash(a), hb = test_video_hash(b);
    CHECK(ha && test_video_hash_range(whole, 0, 72) == ha, "the sequence's first 72 frames are not a.yaml's");
    CHECK(hb && test_video_hash_range(whole, 72, 48) == hb, "the sequence's last 48 frames are not b.yaml's 1s to 3s");
    CHECK(ha != hb, "the parts hash alike: the check cannot fail");
    /* chapters: a's, then b's moved 3 s on */
    chapters cw, ca, cb;
    REQUIRE(!read_chapters(whole, &cw) && !read_chapters(a, &ca) && !read_chapters(b, &cb), "chapters");
    CHECK(cw.n == ca.n + cb.n, "%d chapters, want %d + %d", cw.n, ca.n, cb.n);
    for (int i = 0; i < ca.n && i < cw.n; i++)
        CHECK(cw.start[i] == ca.start[i] && !strcmp(cw.title[i], ca.title[i]), "chapter %d: %lld '%s', a's %lld '%s'",
              i, cw.start[i], cw.title[i], ca.start[i], ca.title[i]);
    for (int i = 0; i < cb.n && ca.n + i < cw.n; i++)
        CHECK(cw.start[ca.n + i] == cb.start[i] + 3000 && cw.end[ca.n + i] == cb.end[i] + 3000 &&
                  !strcmp(cw.title[ca.n + i], cb.title[i]),
              "chapter %d: %lld-%lld '%s', want b's %lld-%lld + 3000 '%s'", ca.n + i, cw.start[ca.n + i],
              cw.end[ca.n + i], cw.title[ca.n + i], cb.start[i], cb.end[i], cb.title[i]);
    /* subtitles: a's, then b's moved 3 s on */
    long long ws[16], we[16], as[16], ae[16], bs[16], be[16];
    char wt[16][64], at[16][64], bt[16][64];
    int nw = read_srt(scratch_path("seq.srt"), ws, we, wt), na = read_srt(scratch_path("a.srt"), as, ae, at),
        nb = read_srt(scratch_path("b.srt"), bs, be, bt);
    REQUIRE(na == 2 && nb == 1 && nw == na + nb, "cues %d + %d -> %d", na, nb, nw);
    for (int i = 0; i < na; i++)
        CHECK(ws[i] == as[i] && we[i] == ae[i] && !strcmp(wt[i], at[i]), "cue %d moved", i);
    CHECK(ws[2] == bs[0] + 3000 && we[2] == be[0] + 3000 && !strcmp(wt[2], bt[0]),
          "cue 2 at %lld-%lld '%s', want b's %lld-%lld + 3000 '%s'", ws[2], we[2], wt[2], bs[0], be[0], bt[0]);
    CHECK(bs[0] == 0 && be[0] == 500, "b's cue from 1s is at %lld-%lld, want 0-500", bs[0], be[0]);
}

/* One provenance for the whole, listing every scene with its own. */
TEST(a_sequences_provenance_lists_every_scene)
{
    parts();
    write_file(scratch_path("prov.yaml"), "sequence:\n  - scene: a.yaml\n  - {title: Interlude, for: 1s}\n"
                                          "  - scene: b.yaml\n");
    char args[1024], err[4096], tag[65536];
    const char *out = path_of("prov.mp4");
    snprintf(args, sizeof args, "%s -o %s", scratch_path("prov.yaml"), out);
    REQUIRE(render(args, err, sizeof err) == 0, "%s", err);
    REQUIRE(test_video_tag(out, "comment", tag, sizeof tag) == 0, "no provenance");
    CHECK(strstr(tag, "sequence: ") && strstr(tag, "prov.yaml"), "the sequence file is not named: %.300s", tag);
    CHECK(strstr(tag, "entry 1 (line 2): scene a.yaml, its frames 0 to 71, at frames 0 to 71"), "entry 1: %.900s", tag);
    CHECK(strstr(tag, "entry 2 (line 3): title card \"Interlude\", 24 frames, at frames 72 to 95"), "entry 2: %.900s", tag);
    CHECK(strstr(tag, "# entry 1: a.yaml") && strstr(tag, "# entry 3: b.yaml"), "the entries' scenes are not listed");
    CHECK(strstr(tag, "seed: 3") && strstr(tag, "seed: 4"), "the entries' own provenance is missing");
    CHECK(strstr(tag, "# sequence file\nsequence:"), "the sequence file's text is missing");
}

/* A fade darkens both sides of the cut toward black; a crossfade's middle
 * frame lies between the two entries' frames. */
TEST(fades_darken_and_crossfades_blend)
{
    parts();
    write_file(scratch_path("fade.yaml"), "transition: {fade, over: 0.5s}\nsequence:\n  - scene: a.yaml\n"
                                          "  - scene: b.yaml\n");
    write_file(scratch_path("cross.yaml"), "transition: {type: crossfade, over: 0.5s}\nsequence:\n"
                                           "  - scene: a.yaml\n  - scene: b.yaml\n");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "%s -o %s", scratch_path("fade.yaml"), scratch_path("fade.mp4"));
    REQUIRE(render(args, err, sizeof err) == 0, "%s", err);
    snprintf(args, sizeof args, "%s -o %s", scratch_path("cross.yaml"), scratch_path("cross.mp4"));
    REQUIRE(render(args, err, sizeof err) == 0, "%s", err);
    test_video_info f, c;
    REQUIRE(!test_video_probe(scratch_path("fade.mp4"), &f) && !test_video_probe(scratch_path("cross.mp4"), &c), "probe");
    CHECK(f.frames == 72 + 96, "fade: %d frames, want 168", f.frames);
    CHECK(c.frames == 72 + 96 - 12, "crossfade: %d frames, want 156 (12 overlap)", c.frames);
    uint8_t *px;
    int w, h;
    /* the fade's last frame of a and first of b: background near black */
    int frames[3] = {71, 72, 30};
    int blue[3];
    for (int i = 0; i < 3; i++) {
        REQUIRE(test_video_frame_rgb(scratch_path("fade.mp4"), frames[i], &px, &w, &h) == 0, "decode");
        blue[i] = px[3 * (2 * w + 2) + 0] + px[3 * (2 * w + 2) + 1] + px[3 * (2 * w + 2) + 2];
        free(px);
    }
    CHECK(blue[0] < blue[2] / 4 && blue[1] < 40, "fade: corner %d and %d at the cut, %d before", blue[0], blue[1], blue[2]);
    /* the crossfade's frame 66 is a's frame 66 and b's frame 6, 7/13 of the way to b */
    char args2[1024];
    snprintf(args2, sizeof args2, "%s -o %s", scratch_path("a.yaml"), scratch_path("a.mp4"));
    REQUIRE(render(args2, err, sizeof err) == 0, "%s", err);
    snprintf(args2, sizeof args2, "%s -o %s", scratch_path("b.yaml"), scratch_path("b.mp4"));
    REQUIRE(render(args2, err, sizeof err) == 0, "%s", err);
    uint8_t *pa, *pb;
    REQUIRE(test_video_frame_rgb(scratch_path("cross.mp4"), 66, &px, &w, &h) == 0, "decode");
    REQUIRE(test_video_frame_rgb(scratch_path("a.mp4"), 66, &pa, &w, &h) == 0, "decode a");
    REQUIRE(test_video_frame_rgb(scratch_path("b.mp4"), 6, &pb, &w, &h) == 0, "decode b");
    double off = 0, apart = 0;
    for (int i = 0; i < 3 * w * h; i++) {
        off += fabs(px[i] - (pa[i] + (pb[i] - pa[i]) * 7.0 / 13));
        apart += abs(pa[i] - pb[i]);
    }
    off /= 3.0 * w * h;
    apart /= 3.0 * w * h;
    CHECK(off < 1.5 && apart > 10, "crossfade frame 66 is %.2f per channel off a and b blended (they differ by %.1f)",
          off, apart);
    free(px);
    free(pa);
    free(pb);
}

/* --chunk and join make the whole render of a sequence; --from/--to the
 * same frames as the whole's; any thread count the same frames. */
TEST(chunks_and_parts_of_a_sequence_are_the_whole_render)
{
    parts();
    write_file(scratch_path("ch.yaml"), "transition: {crossfade, over: 0.25s}\nsequence:\n  - scene: a.yaml\n"
                                        "  - {title: \"Part 2\", for: 1s, transition: fade}\n  - scene: b.yaml\n");
    char args[2048], err[4096];
    const char *whole = path_of("ch.mp4");
    snprintf(args, sizeof args, "%s -o %s --threads 1", scratch_path("ch.yaml"), whole);
    REQUIRE(render(args, err, sizeof err) == 0, "%s", err);
    test_video_info info;
    REQUIRE(test_video_probe(whole, &info) == 0, "probe");
    uint64_t hw = test_video_hash(whole);
    snprintf(args, sizeof args, "%s -o %s --threads 2", scratch_path("ch.yaml"), scratch_path("ch2.mp4"));
    REQUIRE(render(args, err, sizeof err) == 0, "%s", err);
    CHECK(test_video_hash(scratch_path("ch2.mp4")) == hw, "--threads 2 drew other frames");
    for (int k = 1; k <= 3; k++) {
        snprintf(args, sizeof args, "%s --chunk %d/3 -o %s/ch.chunk-%d-of-3.mp4", scratch_path("ch.yaml"), k,
                 scratch(), k);
        REQUIRE(render(args, err, sizeof err) == 0, "chunk %d: %s", k, err);
    }
    snprintf(args, sizeof args, "join %s/ch.chunk-1-of-3.mp4 %s/ch.chunk-3-of-3.mp4 %s/ch.chunk-2-of-3.mp4 -o %s -q",
             scratch(), scratch(), scratch(), scratch_path("joined.mp4"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "join: %s", err);
    CHECK(test_video_hash(scratch_path("joined.mp4")) == hw, "the joined chunks are not the whole render");
    /* --from 2.5s (frame 60, in the crossfade) to 5s (frame 120) */
    snprintf(args, sizeof args, "%s -o %s --from 2.5s --to 5s", scratch_path("ch.yaml"), scratch_path("mid.mp4"));
    REQUIRE(render(args, err, sizeof err) == 0, "%s", err);
    CHECK(test_video_hash(scratch_path("mid.mp4")) == test_video_hash_range(whole, 60, 60),
          "--from 2.5s --to 5s is not frames 60 to 119 of the whole (%d frames)", info.frames);
}

/* Bad sequences: exit 2 naming the sequence's line, nothing written. */
static void refused(const char *name, const char *yaml, const char *where, const char *says)
{
    write_file(scratch_path(name), yaml);
    char args[1024], err[4096], want[512];
    const char *out = path_of("refused.mp4");
    snprintf(args, sizeof args, "%s -o %s", scratch_path(name), out);
    int st = render(args, err, sizeof err);
    snprintf(want, sizeof want, "%s:%s", scratch_path(name), where);
    CHECK(st == 2, "%s: exit %d, want 2: %s", name, st, err);
    CHECK(strstr(err, want), "%s: no '%s' in: %s", name, want, err);
    CHECK(strstr(err, says), "%s: no '%s' in: %s", name, says, err);
    CHECK(access(out, F_OK) != 0, "%s: an output was written", name);
}

TEST(bad_sequences_exit_2_naming_the_line)
{
    parts();
    part("big.yaml", 5, "#000000", "2s", NULL);
    write_file(scratch_path("big.yaml"), "seed: 5\nmodel: wrkspc\nvideo: {width: 320, height: 200, fps: 24, duration: 2s}\n");
    write_file(scratch_path("fast.yaml"), "seed: 5\nmodel: wrkspc\nvideo: {width: 160, height: 108, fps: 30, duration: 2s}\n");
    refused("missing.yaml", "sequence:\n  - scene: a.yaml\n  - scene: nosuch.yaml\n", "3:12:", "nosuch.yaml");
    refused("self.yaml", "sequence:\n  - scene: a.yaml\n  - scene: self.yaml\n", "3:12:", "includes itself");
    write_file(scratch_path("loop2.yaml"), "sequence:\n  - scene: a.yaml\n  - scene: loop1.yaml\n");
    write_file(scratch_path("loop1.yaml"), "sequence:\n  - scene: loop2.yaml\n");
    char err0[4096], args0[1024];   /* the loop is closed at loop2.yaml's entry, and said whole */
    snprintf(args0, sizeof args0, "%s -o %s", scratch_path("loop1.yaml"), path_of("refused.mp4"));
    CHECK(render(args0, err0, sizeof err0) == 2 && strstr(err0, "loop2.yaml:3:12: error: the sequence includes itself") &&
              strstr(err0, "loop1.yaml -> ") && strstr(err0, "loop2.yaml -> "),
          "the loop is not named at loop2.yaml's entry: %s", err0);
    CHECK(access(path_of("refused.mp4"), F_OK) != 0, "loop: an output was written");
    refused("sizes.yaml", "sequence:\n  - scene: a.yaml\n  - scene: big.yaml\n", "3:5:", "320x200");
    refused("rates.yaml", "sequence:\n  - scene: a.yaml\n  - scene: fast.yaml\n", "3:5:", "30 fps");
    refused("long.yaml", "sequence:\n  - scene: a.yaml\n  - {scene: b.yaml, to: 1s, transition: {crossfade, over: 2s}}\n",
            "3:41:", "longer than the entry on line 3");
    refused("kind.yaml", "transition: dissolve\nsequence:\n  - scene: a.yaml\n", "1:13:", "cut, fade or crossfade");
    refused("key.yaml", "sequence:\n  - {scene: a.yaml, frm: 1s}\n", "2:21:", "did you mean 'from'?");
    refused("to.yaml", "sequence:\n  - {scene: a.yaml, to: 9s}\n", "2:25:", "out of range");
    /* video: of the sequence sets them for all: the same entries render */
    write_file(scratch_path("one-size.yaml"), "video: {width: 200, height: 120, fps: 24}\nsequence:\n"
                                              "  - scene: a.yaml\n  - scene: big.yaml\n");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "%s -o %s", scratch_path("one-size.yaml"), scratch_path("one-size.mp4"));
    REQUIRE(render(args, err, sizeof err) == 0, "%s", err);
    test_video_info info;
    REQUIRE(test_video_probe(scratch_path("one-size.mp4"), &info) == 0, "probe");
    CHECK(info.width == 200 && info.height == 120 && info.frames == 72 + 48, "%dx%d, %d frames", info.width,
          info.height, info.frames);
}
