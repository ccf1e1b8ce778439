# One line per file, so that a file can be added with a single append.
# The probes themselves, src/probes/NAME.c, come from the lines
# PR_PROBE(NAME) of include/perfreg/probes.def, so that adding a probe
# needs no line here (doc/HACKING.md, "Adding a probe").
file(STRINGS ${CMAKE_SOURCE_DIR}/include/perfreg/probes.def PR_PROBE_LINES
	REGEX "^PR_PROBE\\([a-z0-9_]+\\)$")
foreach(line ${PR_PROBE_LINES})
	string(REGEX REPLACE "^PR_PROBE\\(([a-z0-9_]+)\\)$" "\\1" name ${line})
	list(APPEND PR_LIB_SOURCES src/probes/${name}.c)
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
	${CMAKE_SOURCE_DIR}/include/perfreg/probes.def)
list(APPEND PR_LIB_SOURCES src/probes/suite.c)
list(APPEND PR_LIB_SOURCES src/probes/registry.c)
list(APPEND PR_LIB_SOURCES src/probes/config.c)
list(APPEND PR_LIB_SOURCES src/probes/probeutil.c)
list(APPEND PR_LIB_SOURCES src/probes/compare.c)
list(APPEND PR_LIB_SOURCES src/probes/process.c)
