# riglens_set_warnings(target): the warning set every RigLens target builds with.
function(riglens_set_warnings target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4 $<$<BOOL:${RIGLENS_WERROR}>:/WX>)
  else()
    target_compile_options(${target} PRIVATE
      -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
      -Wcast-align -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough
      $<$<BOOL:${RIGLENS_WERROR}>:-Werror>)
  endif()
endfunction()
