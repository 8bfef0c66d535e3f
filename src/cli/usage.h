/* The command line described once: its commands and their options are
 * tables (usage.c) that the parser in main.c, `--help`, the manual page
 * (`murmur --man`) and the bash completion (`murmur --completion bash`)
 * all read, so none of them can name an option the others do not. */
#ifndef MURMUR_USAGE_H
#define MURMUR_USAGE_H

#include <stddef.h>
#include <stdio.h>

/* The offset of an option main() answers before parsing (-h, --version). */
#define MUR_USAGE_NO_FIELD ((size_t)-1)

/* What a command's operand completes to. */
typedef enum { MUR_OPERAND_SCENE, MUR_OPERAND_PRESET, MUR_OPERAND_COMMAND, MUR_OPERAND_FILES } mur_operand_kind;

typedef struct mur_usage_command {
    const char *name;      /* "render" */
    const char *operand;   /* as the synopsis shows it: "SCENE", "[NAME]"; NULL: none */
    mur_operand_kind kind; /* what the operand completes to */
    const char *summary;   /* one line, lower case, no full stop */
    const char *text;      /* a paragraph: what it writes, what to know */
} mur_usage_command;

/* An option whose meaning differs between commands has one row per meaning,
 * the rows adjacent; a command takes at most one row of each name. */
typedef struct mur_usage_option {
    const char *name, *alias;  /* "--output", "-o"; alias may be NULL */
    const char *arg;           /* the value's name ("FILE"); NULL: a flag */
    size_t offset;             /* in mur_cli_opts: const char * for a value, int for a flag */
    const char *commands;      /* space-separated; "*": every command; NULL: none (before one) */
    int required;              /* the command fails without it */
    int file;                  /* the value is a file name (completed as one) */
    const char *help;          /* lower case, no full stop */
    const char *dflt;          /* shown as "(default: ...)"; NULL: none */
} mur_usage_option;

/// The command named name, or NULL.
const mur_usage_command *mur_usage_command_find(const char *name);

/// The command nearest to a mistyped name (two edits at most), or NULL.
const char *mur_usage_command_nearest(const char *name);

/// The row of option arg (a name or an alias) that command cmd takes; when
/// cmd takes none, another row of that name (check mur_usage_applies); NULL
/// when no option has that name.
const mur_usage_option *mur_usage_option_find(const char *arg, const char *cmd);

/// 1 when command cmd takes option row o.
int mur_usage_applies(const mur_usage_option *o, const char *cmd);

/// `murmur --help`: the commands and the options every command shares.
void mur_usage_overview(FILE *fp);

/// `murmur COMMAND --help`: the command's synopsis, what it does, its options.
void mur_usage_command_help(FILE *fp, const mur_usage_command *c);

/// `murmur --man`: the manual page murmur(1), in roff.
void mur_usage_man(FILE *fp);

/// `murmur --completion bash`: a bash completion script for murmur.
void mur_usage_bash_completion(FILE *fp);

#endif
