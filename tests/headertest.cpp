// The header test's C++ side: the umbrella header in a C++ program, and a
// call across the extern "C" boundary that must link.
#include <murmur/murmur.h>

#include <cstdio>
#include <cstring>

int main()
{
    const char *v = mur_version();
    if (std::strcmp(v, MUR_VERSION_STRING) != 0) {
        std::printf("mur_version() is %s, the headers say %s\n", v, MUR_VERSION_STRING);
        return 1;
    }
    mur_error err = {{0}};
    mur_scene *s = nullptr;
    const char text[] = "seed: 1\n";
    int rc = mur_scene_parse(&s, "cpp.yaml", text, sizeof text - 1, &err);
    mur_scene_destroy(s);
    std::printf("headertest: murmur %s from C++, scene rc %d\n1 passed, 0 failed\n", v, rc);
    return rc == MUR_OK ? 0 : 1;
}
