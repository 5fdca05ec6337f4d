# Run at install time by the bundle's install rules (cmake/bundle.cmake), or
# by hand: cmake -DPCOUNT_BUNDLE_ROOT=<unpacked bundle> -P bundle-copyrights.cmake
#
# Every shared library in the bundle's lib/ and program in its bin/ that a
# Debian package installed (found with `dpkg-query -S`) brings that
# package's /usr/share/doc/<package>/copyright along, as
# share/doc/pcount/third-party/<package>.copyright: the bundle redistributes
# their binaries, so it carries their licences (cliquer's is the GPL). Fails
# when a package's copyright file is missing. pcount's own programs
# (PCOUNT_BUNDLE_OWN, default count and count-mpi) are skipped: a package
# may own a file of the same name elsewhere (llvm's /usr/lib/llvm-14/bin/count).
if(NOT PCOUNT_BUNDLE_ROOT)
  set(PCOUNT_BUNDLE_ROOT "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}")
endif()
if(NOT DEFINED PCOUNT_BUNDLE_OWN)
  set(PCOUNT_BUNDLE_OWN count count-mpi)
endif()
set(_out "${PCOUNT_BUNDLE_ROOT}/share/doc/pcount/third-party")
file(GLOB _files "${PCOUNT_BUNDLE_ROOT}/lib/*.so*" "${PCOUNT_BUNDLE_ROOT}/lib64/*.so*" "${PCOUNT_BUNDLE_ROOT}/bin/*")
set(_packages "")
foreach(_file IN LISTS _files)
  get_filename_component(_name "${_file}" NAME)
  list(FIND PCOUNT_BUNDLE_OWN "${_name}" _own) # (no IN_LIST: script mode runs without CMP0057)
  if(NOT _own EQUAL -1)
    continue()
  endif()
  execute_process(COMMAND dpkg-query -S "*/${_name}" OUTPUT_VARIABLE _owners RESULT_VARIABLE _rc ERROR_QUIET)
  if(NOT _rc EQUAL 0)
    continue() # not from a package (count itself)
  endif()
  # Lines "pkg[:arch][, pkg2[:arch]]: /path"; only a path ending in this very name counts.
  string(REPLACE "\n" ";" _lines "${_owners}")
  foreach(_line IN LISTS _lines)
    if(NOT _line MATCHES "^(.+): (/.*)$")
      continue()
    endif()
    set(_owned_by "${CMAKE_MATCH_1}")
    get_filename_component(_owned_name "${CMAKE_MATCH_2}" NAME)
    if(_owned_name STREQUAL _name)
      string(REPLACE ", " ";" _owned_by "${_owned_by}")
      foreach(_pkg IN LISTS _owned_by)
        string(REGEX REPLACE ":.*$" "" _pkg "${_pkg}")
        list(APPEND _packages "${_pkg}")
      endforeach()
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES _packages)
if(NOT _packages)
  message(FATAL_ERROR "bundle-copyrights: no file under ${PCOUNT_BUNDLE_ROOT} comes from a Debian package")
endif()
foreach(_pkg IN LISTS _packages)
  set(_copyright "/usr/share/doc/${_pkg}/copyright")
  if(NOT EXISTS "${_copyright}")
    message(FATAL_ERROR "bundle-copyrights: ${_pkg} is bundled but has no ${_copyright}")
  endif()
  file(READ "${_copyright}" _text) # follows a symlinked doc folder
  file(WRITE "${_out}/${_pkg}.copyright" "${_text}")
  message(STATUS "Bundled licence: ${_out}/${_pkg}.copyright")
endforeach()
