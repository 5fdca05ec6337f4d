# Install rules, included from the top-level CMakeLists.txt.
#
#   Development: include/pcount/**, the static libraries, and the CMake package
#                lib/cmake/pcount/ (targets pcount::engine, ::driver, ::graph,
#                ::latin, ::sudoku, ::sudoku_grids, ::queens, ::games, ::designs,
#                ::problems;
#                README.md
#                "Using pcount as a library").
#   Runtime:     count (and count-mpi when it was built), share/pcount/ (the
#                data count finds beside itself), share/doc/pcount/ (LICENSE,
#                CHANGELOG.md), share/man/man1/count.1 and
#                share/bash-completion/completions/count (made from
#                `count --help`); with PCOUNT_BUNDLE also the shared libraries
#                and nauty-genbg of the relocatable bundle, with the copyright
#                file of each (share/doc/pcount/third-party/).
#
# The `count` program's problem table (pcount_cli) is not exported: a
# program of one's own lists its problems for driver::main.
include(CMakePackageConfigHelpers)
set(PCOUNT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/pcount)

set_target_properties(pcount_flags PROPERTIES EXPORT_NAME flags)
install(TARGETS pcount_flags pcount_engine pcount_driver pcount_graph pcount_latin pcount_sudoku
                pcount_sudoku_grids pcount_queens pcount_games pcount_designs pcount_problems
        EXPORT pcountTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/pcount DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT Development)
install(EXPORT pcountTargets NAMESPACE pcount:: DESTINATION ${PCOUNT_INSTALL_CMAKEDIR}
        COMPONENT Development)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/pcountConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/pcountConfig.cmake
                              INSTALL_DESTINATION ${PCOUNT_INSTALL_CMAKEDIR})
# A 0.x project may break its API in any minor release: 0.1.y accepts only
# requests for 0.1.z (z ≤ y), where SameMajorVersion would accept 0.2 too.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pcountConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pcountConfig.cmake ${PROJECT_BINARY_DIR}/pcountConfigVersion.cmake
        DESTINATION ${PCOUNT_INSTALL_CMAKEDIR} COMPONENT Development)

if(PCOUNT_BUNDLE)
  include(${CMAKE_CURRENT_LIST_DIR}/bundle.cmake) # sets _pcount_bundle_deps
endif()
install(TARGETS count ${_pcount_bundle_deps}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime)
# count-mpi is installed when it was built: scripts/count builds only count,
# and `cmake --install` after it must not stop half-way on the missing file.
# (The bundle leaves MPI to the cluster's own build.)
if(TARGET count-mpi AND NOT PCOUNT_BUNDLE)
  install(TARGETS count-mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime OPTIONAL)
endif()
# The data count finds beside itself (../share/pcount from bin/;
# include/pcount/engine/data_files.hpp): the proved optimal strategy trees.
# With the licence, in the install and the bundle alike.
install(FILES ${PROJECT_SOURCE_DIR}/data/games/bulls-and-cows-optimal.json ${PROJECT_SOURCE_DIR}/data/games/README.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/pcount/games COMPONENT Runtime)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CHANGELOG.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT Runtime)
# The guides (docs/*.md), which the man page points to.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT Runtime
        FILES_MATCHING PATTERN "*.md")
# The man page and bash completion made from `count --help` (CMakeLists.txt),
# when help2man and python3 were there to make them.
install(FILES ${PROJECT_BINARY_DIR}/count.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT Runtime OPTIONAL)
install(FILES ${PROJECT_BINARY_DIR}/count.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME count COMPONENT Runtime OPTIONAL)
if(PCOUNT_BUNDLE)
  pcount_bundle_install_rules()
endif()
