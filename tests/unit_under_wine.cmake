# Runs the Windows unit tests of one source file (FILTER, a doctest -sf pattern) under Wine, with
# the report written to a file (doctest's -o) and then printed. One process per file, so that a
# failure or a crash names its file and the others still report. (One process for all once lost
# its standard handles and stalled after some 190 cases: that was asio's thread classes mixed
# between files, fixed in f5d35f5; all 423 cases now pass in one process too.) Fails when the tests
# fail, and when the file ran no test case (all compiled out for Windows, or skipped): such an entry
# would pass while testing nothing. Prints how many of the file's cases ran and how many were skipped.
# Usage: cmake -DEMULATOR=wine -DTESTS=mcp-edit-tests.exe -DFILTER=*unit/x/y.cpp -DREPORT=file -P unit_under_wine.cmake
get_filename_component(report_dir "${REPORT}" DIRECTORY)
get_filename_component(report_name "${REPORT}" NAME)
file(MAKE_DIRECTORY "${report_dir}")
# A Wine start that fails (seen now and then in CI: exit status 1 in 0.1 s, no report, so not one
# test ran) is tried again, twice at most; a run that wrote a report is the result, pass or fail.
foreach(attempt 1 2 3)
  file(REMOVE "${REPORT}")
  execute_process(COMMAND ${EMULATOR} "${TESTS}" "-sf=${FILTER}" "-o=${report_name}"
    WORKING_DIRECTORY "${report_dir}" RESULT_VARIABLE status)
  if(status EQUAL 0 OR EXISTS "${REPORT}")
    break()
  endif()
  message("attempt ${attempt}: ${TESTS} wrote no report (exit status ${status}); Wine's start failed")
endforeach()
if(EXISTS "${REPORT}")
  file(READ "${REPORT}" report)
  message("${report}")
else()
  message("no report was written to ${REPORT}")
endif()
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the unit tests of ${FILTER} failed under Wine (exit status ${status})")
endif()
if(NOT report MATCHES "test cases: *([0-9]+) \\|")
  message(FATAL_ERROR "the report of ${FILTER} under Wine has no doctest summary (\"test cases: N |\")")
endif()
set(ran "${CMAKE_MATCH_1}")
# The file's cases with the skipped ones (doctest::skip) counted too: --no-skip --count runs none.
# The count is for the message only (the check is `ran` above): a failed Wine start is tried
# again here too, then reported, not failed.
if(ran EQUAL 0)
  message(FATAL_ERROR "${FILTER} ran no test case under Wine: this entry would pass while testing nothing")
endif()
set(count_name "${report_name}.count")
set(cases "")
foreach(attempt 1 2 3)
  file(REMOVE "${report_dir}/${count_name}")
  execute_process(COMMAND ${EMULATOR} "${TESTS}" "-sf=${FILTER}" --no-skip --count "-o=${count_name}"
    WORKING_DIRECTORY "${report_dir}" RESULT_VARIABLE count_status)
  set(counted "")
  if(EXISTS "${report_dir}/${count_name}")
    file(READ "${report_dir}/${count_name}" counted)
  endif()
  if(count_status EQUAL 0 AND counted MATCHES "passing the current filters: *([0-9]+)")
    set(cases "${CMAKE_MATCH_1}")
    break()
  endif()
endforeach()
if(cases STREQUAL "")
  message("${FILTER} under Wine: ${ran} test cases ran (the count of skipped ones failed: exit status ${count_status})")
else()
  math(EXPR skipped "${cases} - ${ran}")
  message("${FILTER} under Wine: ${ran} test cases ran, ${skipped} skipped")
endif()
