# CTest's smoke of bench_shader_stats: every compute shader of the build, its
# SPIR-V taken out of the .qsb with Qt's qsb (and the sort's per-subgroup-size
# builds as they are), laid out from its own decorations - the layout
# compared with the one qsb reflects for the same shader - and built into a
# pipeline by the machine's Vulkan driver (lavapipe in CI, which reports no
# statistics and does not check a layout against its shader).
#   cmake -DTOOL=... -DQSB=... -DQSB_DIR=... -DSPIRV_DIR=... -DOUT=... -P run_on_build_shaders.cmake
# The layout Qt's qsb reflects for a .qsb (its own SPIRV-Cross reflection,
# `qsb -d`), written as `bench_shader_stats --layout` writes it: the
# workgroup size, then binding:kind in binding order.
function(qsb_layout qsb out)
  execute_process(COMMAND "${QSB}" -d "${qsb}" OUTPUT_VARIABLE dump ERROR_QUIET)
  string(FIND "${dump}" "Reflection info: {" at)
  string(SUBSTRING "${dump}" ${at} -1 dump)
  string(FIND "${dump}" "\n}\n" end)
  math(EXPR length "${end} + 2 - 17")  # from the brace after "Reflection info: " to the closing one
  string(SUBSTRING "${dump}" 17 ${length} json)
  set(entries "")
  foreach(kind uniformBlocks:uniform-buffer storageBlocks:storage-buffer storageImages:storage-image
               combinedImageSamplers:combined-image-sampler separateImages:sampled-image separateSamplers:sampler)
    string(REPLACE ":" ";" kind "${kind}")
    list(GET kind 0 key)
    list(GET kind 1 name)
    string(JSON count ERROR_VARIABLE missing LENGTH "${json}" ${key})
    if(missing)
      continue()
    endif()
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON binding GET "${json}" ${key} ${i} binding)
      math(EXPR sortable "100000 + ${binding}")  # binding order, as text
      list(APPEND entries "${sortable}:${binding}:${name}")
    endforeach()
  endforeach()
  list(SORT entries)
  set(text "")
  foreach(i 0 1 2)
    string(JSON size GET "${json}" localSize ${i})
    list(APPEND text "${size}")
  endforeach()
  string(JOIN "x" text ${text})
  foreach(entry IN LISTS entries)
    string(SUBSTRING "${entry}" 7 -1 entry)  # past the six sorting digits and their colon
    string(APPEND text " ${entry}")
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

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
  execute_process(COMMAND "${QSB}" -x spirv,100 -o "${OUT}/${name}.spv" "${qsb}" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "qsb could not take the SPIR-V out of ${qsb}")
  endif()
  list(APPEND inputs "${OUT}/${name}.spv")
  qsb_layout("${qsb}" expected)
  execute_process(COMMAND "${TOOL}" --layout "${OUT}/${name}.spv" OUTPUT_VARIABLE read OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT read STREQUAL expected)
    message(FATAL_ERROR "${name}: bench_shader_stats reads the layout '${read}', qsb reflects '${expected}'")
  endif()
endforeach()
execute_process(COMMAND "${TOOL}" ${inputs} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench_shader_stats failed (exit ${rc})")
endif()

# Its refusals, each named with why: a file that is not whole 32-bit words,
# words that are not SPIR-V, a module cut inside an instruction or between
# two (the first 4000 bytes of the raster's: either, as its instructions
# fall), and its header alone (cut before the first instruction).
file(WRITE "${OUT}/refused/odd-size.spv" "twenty-five bytes of text")
file(WRITE "${OUT}/refused/not-spirv.spv" "twenty-four bytes of txt")
execute_process(COMMAND head -c 4000 "${OUT}/splat_raster.comp.spv" OUTPUT_FILE "${OUT}/refused/truncated.spv")
execute_process(COMMAND head -c 20 "${OUT}/splat_raster.comp.spv" OUTPUT_FILE "${OUT}/refused/header-only.spv")
function(expect_refusal file why)
  execute_process(COMMAND "${TOOL}" "${file}" RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  if(rc EQUAL 0 OR NOT err MATCHES "${why}")
    message(FATAL_ERROR "bench_shader_stats took ${file} (exit ${rc}, said: ${err})")
  endif()
endfunction()
expect_refusal("${OUT}/refused/odd-size.spv" "cannot be read as SPIR-V words")
expect_refusal("${OUT}/refused/not-spirv.spv" "not a SPIR-V module")
expect_refusal("${OUT}/refused/truncated.spv"
  "(the instruction at word [0-9]+ runs past the module's end|the module ends at word 1000, not at a function's end)")
expect_refusal("${OUT}/refused/header-only.spv" "the module ends at word 5, not at a function's end")
