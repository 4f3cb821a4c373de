# CTest's smoke of bench_shader_stats: every compute shader of the build, its
# SPIR-V taken out of the .qsb with Qt's qsb (and the sort's per-subgroup-size
# builds as they are), laid out from its own decorations and built into a
# pipeline by the machine's Vulkan driver (lavapipe in CI, which reports no
# statistics: the layouts are what this checks).
#   cmake -DTOOL=... -DQSB=... -DQSB_DIR=... -DSPIRV_DIR=... -DOUT=... -P run_on_build_shaders.cmake
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
file(GLOB qsb_files "${QSB_DIR}/*.comp.qsb")
file(GLOB spirv_files "${SPIRV_DIR}/*.spv")
list(LENGTH qsb_files qsb_count)
if(qsb_count EQUAL 0)
  message(FATAL_ERROR "no compute shaders in ${QSB_DIR}")
endif()
set(inputs ${spirv_files})
foreach(qsb IN LISTS qsb_files)
  get_filename_component(name "${qsb}" NAME_WLE)
  execute_process(COMMAND "${QSB}" -x spirv,100 -o "${OUT}/${name}.spv" "${qsb}" RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "qsb could not take the SPIR-V out of ${qsb}")
  endif()
  list(APPEND inputs "${OUT}/${name}.spv")
endforeach()
execute_process(COMMAND "${TOOL}" ${inputs} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench_shader_stats failed (exit ${rc})")
endif()
