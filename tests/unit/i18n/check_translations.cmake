# SPDX-License-Identifier: MIT
# cmake -DLUPDATE=... -DTS=catalogue.ts -DPROJECT=lupdate-project.cmake -DGENERATE=GenerateLUpdateProject.cmake
#       -DWORK=dir -P check_translations.cmake
# Updates a copy of the catalogue from the sources as `servescope_views_lupdate` does (same sources
# and include paths, so the same contexts), keeping what vanished, and fails on what is not
# translated (unfinished) or no longer in the sources (vanished, obsolete).
set(copy ${WORK}/check_zh_CN.ts)
file(COPY_FILE ${TS} ${copy})
file(READ ${PROJECT} project)
file(WRITE ${WORK}/check_project.cmake "${project}\nset(lupdate_translations \"${copy}\")\n")
execute_process(COMMAND ${CMAKE_COMMAND} -DIN_FILE=${WORK}/check_project.cmake -DOUT_FILE=${WORK}/check_project.json
    -P ${GENERATE} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cannot write the lupdate project from ${PROJECT}")
endif()
execute_process(COMMAND ${LUPDATE} -project ${WORK}/check_project.json -locations none -silent
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lupdate failed (${rc}): ${out}${err}")
endif()
file(READ ${copy} ts)
# Semicolons (in entities such as &apos;) would split CMake lists.
string(REPLACE ";" "," ts "${ts}")
set(problems "")
foreach(kind unfinished vanished obsolete)
    string(REGEX MATCHALL "<source>[^<]*</source>[^<]*(<comment>[^<]*</comment>[^<]*)?<translation[^>]*type=\"${kind}\""
        hits "${ts}")
    foreach(hit ${hits})
        string(REGEX REPLACE "^<source>([^<]*)</source>.*" "\\1" text "${hit}")
        string(APPEND problems "  ${kind}: ${text}\n")
    endforeach()
    string(REGEX MATCHALL "type=\"${kind}\"" all "${ts}")
    list(LENGTH all n)
    list(LENGTH hits shown)
    if(n GREATER shown)
        math(EXPR more "${n} - ${shown}")
        string(APPEND problems "  ${kind}: ${more} more (numerus or multi-line entries)\n")
    endif()
endforeach()
string(REGEX MATCHALL "<message" messages "${ts}")
list(LENGTH messages total)
if(problems)
    message(FATAL_ERROR "translations/servescope_zh_CN.ts does not match the sources (${total} messages):\n${problems}"
        "Run `cmake --build build --target servescope_views_lupdate`, translate, and commit the .ts file.")
endif()
message(STATUS "zh_CN: ${total} messages, all translated, none vanished")
