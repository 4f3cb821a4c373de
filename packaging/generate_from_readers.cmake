# Writes the files the reader table decides (engine/core/src/open/asset_readers.cpp),
# from the built riglens-cli: the shared-mime-info XML (riglens-cli formats
# --mime-xml) and the .desktop file with its MimeType line filled in
# (--desktop-mime-types). Run at build time: cmake -DCLI=... -DDESKTOP_IN=...
# -DOUT_DIR=... -P generate_from_readers.cmake
set(ENV{QT_QPA_PLATFORM} offscreen)
execute_process(COMMAND "${CLI}" formats --mime-xml OUTPUT_VARIABLE xml RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "riglens-cli formats --mime-xml failed")
endif()
execute_process(COMMAND "${CLI}" formats --desktop-mime-types OUTPUT_VARIABLE RIGLENS_MIME_TYPES
                OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "riglens-cli formats --desktop-mime-types failed")
endif()
file(WRITE "${OUT_DIR}/riglens-mime.xml" "${xml}")
configure_file("${DESKTOP_IN}" "${OUT_DIR}/riglens.desktop" @ONLY)
