// Fuzzing builds compile tinygltf from Debian's own header here, so the
// sanitizers and the fuzzer's coverage see inside it: the same source and
// the same stb image code the libtinygltf the product links is built with
// (RigLens installs its own image callback and decodes only the base colour
// images a material draws with, through this stb_image).
#define TINYGLTF_IMPLEMENTATION
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <tiny_gltf.h>
