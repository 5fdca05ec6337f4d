# The relocatable bundle of `count` (PCOUNT_BUNDLE=ON, preset `bundle`,
# scripts/bundle, docs/bundle.md): a TGZ, made by CPack, of
#   bin/count         RPATH $ORIGIN/../lib (DT_RPATH, so that it also covers
#                     the libraries' own dependencies, e.g. nauty's cliquer)
#   bin/nauty-genbg   nauty's genbg, found by count beside itself, RPATH as count
#   lib/              every shared library the two need except glibc's and
#                     GCC's runtime (libstdc++, libgcc_s), plus libtbbmalloc,
#                     which libtbb loads at run time when present
#   share/            the data (share/pcount/) and licences (share/doc/pcount/:
#                     pcount's LICENSE and third-party/<package>.copyright of
#                     each bundled Debian package, cmake/bundle-copyrights.cmake)
# The node's own glibc (≥ 2.34) and libstdc++ (≥ GCC 11) are used: Debian
# 12's libstdc++ would itself need glibc 2.36, narrowing the nodes it runs on.
# Only the Runtime component goes in: no headers, static libraries or MPI.
if(PCOUNT_NATIVE)
  message(FATAL_ERROR "PCOUNT_BUNDLE needs PCOUNT_NATIVE=OFF (and e.g. PCOUNT_MARCH=x86-64-v3)")
endif()
find_program(PCOUNT_GENBG_PROGRAM nauty-genbg REQUIRED DOC "nauty's genbg, copied into the bundle")
find_program(PCOUNT_PATCHELF patchelf REQUIRED DOC "sets the RPATH of the bundle's nauty-genbg")

set_target_properties(count PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
target_link_options(count PRIVATE -Wl,--disable-new-dtags)

add_executable(pcount_nauty_genbg IMPORTED)
set_target_properties(pcount_nauty_genbg PROPERTIES IMPORTED_LOCATION ${PCOUNT_GENBG_PROGRAM})

set(_pcount_bundle_deps RUNTIME_DEPENDENCY_SET pcount_bundle)

# Called after count's install rule, so that these run after it.
function(pcount_bundle_install_rules)
  install(IMPORTED_RUNTIME_ARTIFACTS pcount_nauty_genbg RUNTIME_DEPENDENCY_SET pcount_bundle
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime)
  get_filename_component(_genbg ${PCOUNT_GENBG_PROGRAM} NAME)
  install(CODE "execute_process(COMMAND \"${PCOUNT_PATCHELF}\" --force-rpath --set-rpath \"$ORIGIN/../${CMAKE_INSTALL_LIBDIR}\"
                  \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/${_genbg}\" COMMAND_ERROR_IS_FATAL ANY)"
          COMPONENT Runtime)
  if(TARGET TBB::tbbmalloc)
    install(IMPORTED_RUNTIME_ARTIFACTS TBB::tbbmalloc LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Runtime)
  endif()
  # glibc, its loader and GCC's runtime are the node's own; the rest is copied.
  install(RUNTIME_DEPENDENCY_SET pcount_bundle
          PRE_EXCLUDE_REGEXES "ld-linux" "^lib(c|m|mvec|pthread|dl|rt|util|resolv|anl|nsl|stdc\\+\\+|gcc_s)\\.so"
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Runtime)
  # Their licences: the copyright file of the Debian package of each.
  install(SCRIPT ${PROJECT_SOURCE_DIR}/cmake/bundle-copyrights.cmake COMPONENT Runtime)
endfunction()

set(CPACK_GENERATOR TGZ)
if(PCOUNT_MARCH)
  set(CPACK_PACKAGE_FILE_NAME "pcount-${PROJECT_VERSION}-linux-${PCOUNT_MARCH}")
else()
  set(CPACK_PACKAGE_FILE_NAME "pcount-${PROJECT_VERSION}-linux-${CMAKE_SYSTEM_PROCESSOR}")
endif()
set(CPACK_ARCHIVE_COMPONENT_INSTALL ON) # only the components listed next,
set(CPACK_COMPONENTS_ALL Runtime)        # in one archive
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_COMPONENT_INCLUDE_TOPLEVEL_DIRECTORY ON) # unpacks into pcount-<version>-linux-<march>/
set(CPACK_STRIP_FILES ON)
include(CPack)
