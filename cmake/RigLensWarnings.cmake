# riglens_set_warnings(target): the warning set every RigLens target builds with.
function(riglens_set_warnings target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4 $<$<BOOL:${RIGLENS_WERROR}>:/WX>)
  else()
    target_compile_options(${target} PRIVATE
      -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
      -Wcast-align -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough
      $<$<BOOL:${RIGLENS_WERROR}>:-Werror>
      # A class defined in a .cpp may hold a type from that file's anonymous
      # namespace; batched into a unity source, the .cpp is no longer the main
      # file and GCC warns as if the class were in a header. (What the warning
      # guards against, one class seen differently by two sources, cannot
      # happen to a class defined in one .cpp.)
      $<$<AND:$<CXX_COMPILER_ID:GNU>,$<BOOL:$<TARGET_PROPERTY:UNITY_BUILD>>>:-Wno-subobject-linkage>)
  endif()
endfunction()
