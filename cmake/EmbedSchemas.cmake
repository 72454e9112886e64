# Embeds schemas/<tool>.json into the binary at build time: a generated .cpp holds each file's
# text verbatim, so tools/list serves exactly the bytes in the repository.
function(embed_schemas out_var schema_dir)
  file(GLOB schema_files CONFIGURE_DEPENDS "${schema_dir}/*.json")
  list(SORT schema_files)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/generated/embedded_schemas.cpp")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${CMAKE_COMMAND}" -DOUT=${out} "-DFILES=${schema_files}"
            -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/GenerateSchemaTable.cmake"
    DEPENDS ${schema_files} "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/GenerateSchemaTable.cmake"
    COMMENT "Embedding tool schemas"
    VERBATIM)
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()
