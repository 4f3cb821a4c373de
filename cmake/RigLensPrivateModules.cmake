# riglens_add_private_module(<name> OUTPUT_NAME <file stem> MODULE_SOURCE <src>
#                            LOADER_SOURCE <src> IMPLEMENTATION <library>):
# an engine library as a module opened on first use
# (riglens/core/base/private_module.h): <name>_module, lib<stem>.so, is
# <IMPLEMENTATION> behind the table MODULE_SOURCE exports; riglens::<suffix>_loaded
# (<name>_loaded, where <name> is riglens_<suffix>) is the same API as
# <IMPLEMENTATION>'s, implemented by LOADER_SOURCE through the module. A
# program links one or the other; where the module is put and installed is
# the program's choice (app/CMakeLists.txt: beside the program's library).
function(riglens_add_private_module name)
  cmake_parse_arguments(ARG "" "OUTPUT_NAME;MODULE_SOURCE;LOADER_SOURCE;IMPLEMENTATION" "" ${ARGN})
  add_library(${name}_module MODULE ${ARG_MODULE_SOURCE})
  set_target_properties(${name}_module PROPERTIES OUTPUT_NAME ${ARG_OUTPUT_NAME} CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  target_link_libraries(${name}_module PRIVATE ${ARG_IMPLEMENTATION})
  # Only the table's entry is exported: the engine and the libraries behind it stay inside.
  target_link_options(${name}_module PRIVATE -Wl,--exclude-libs,ALL)
  if(NOT RIGLENS_BUILD_FUZZERS)
    # A name left for the program to provide fails here, not at the module's
    # first use. (Not in the fuzz tree: clang's sanitizer runtimes live in the
    # executable, so every module there leaves their names undefined.)
    target_link_options(${name}_module PRIVATE -Wl,--no-undefined)
  endif()
  riglens_set_warnings(${name}_module)

  string(REPLACE "riglens_" "" suffix "${name}")
  add_library(${name}_loaded STATIC ${ARG_LOADER_SOURCE})
  add_library(riglens::${suffix}_loaded ALIAS ${name}_loaded)
  target_include_directories(${name}_loaded PUBLIC include)
  target_link_libraries(${name}_loaded PUBLIC riglens::core)
  add_dependencies(${name}_loaded ${name}_module)
  riglens_set_warnings(${name}_loaded)
endfunction()
