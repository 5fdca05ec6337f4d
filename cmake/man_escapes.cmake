# cmake -DIN=FILE -DOUT=FILE -P man_escapes.cmake: copies the man page that
# help2man wrote in UTF-8 (from `count --help`) with each non-ASCII symbol
# replaced by its groff escape, so that man renders it in a UTF-8 locale
# and in LANG=C alike (≤ as <= there). A symbol missing from the table
# fails the build rather than reach the page as '?'.
file(READ "${IN}" page)
set(_escapes "≤" "\\(<=" "≥" "\\(>=" "×" "\\(mu" "−" "\\-" "≡" "\\(==" "·" "\\(md" "è" "\\(`e"
             "…" "..." "→" "\\(->" "–" "\\(en" "—" "\\(em" "’" "'" "°" "\\(de")
list(LENGTH _escapes _n)
math(EXPR _last "${_n} - 1")
foreach(i RANGE 0 ${_last} 2)
  math(EXPR j "${i} + 1")
  list(GET _escapes ${i} symbol)
  list(GET _escapes ${j} escape)
  string(REPLACE "${symbol}" "${escape}" page "${page}")
endforeach()
string(REGEX MATCH "[^\t\n\r -~]+" _left "${page}")
if(_left)
  message(FATAL_ERROR "${IN}: no groff escape for '${_left}' (add it to ${CMAKE_CURRENT_LIST_FILE})")
endif()
file(WRITE "${OUT}" "${page}")
