# Embeds the review view (ui/review.html with ui/review.css and ui/review.js inlined where its
# markers are) into the binary at build time, as one self-contained page: a generated .cpp holds it.
function(embed_view out_var ui_dir)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/generated/review_view.cpp")
  set(sources "${ui_dir}/review.html" "${ui_dir}/review.css" "${ui_dir}/review.js")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${CMAKE_COMMAND}" -DOUT=${out} -DUI_DIR=${ui_dir}
            -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/GenerateView.cmake"
    DEPENDS ${sources} "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/GenerateView.cmake"
    COMMENT "Embedding the review view"
    VERBATIM)
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()
