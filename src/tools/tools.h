/*
 * tools.h — the entry points of the offline tools (DESIGN.md "tools/"), one
 * per subcommand of main.c's table.
 *
 * Design: an offline tool is a program over the lower layers only — cap/
 * (the capacity engine and cap/cost.h's pure pricing), the pure parts of
 * store/ (items and their sizes, store/item.h; index entries,
 * store/project.h; key hashing, store/key.h) and base/. It opens no LMDB,
 * calls no ops/ and speaks no HTTP: the Makefile links tests/unit/tools/
 * against exactly those objects, so a call into the store's LMDB files or
 * above would not link. `sluice explain` (tools/explain.h) and `sluice
 * streams tail` (tools/streams_tail.h) ask an endpoint instead, as does
 * `sluice size --endpoint` (its command, tools/size_cmd.c), and are left
 * out of that link.
 *
 * Each entry point takes the arguments after the subcommand's name and
 * returns the process exit status: 0 done, 1 the input was wrong (a message
 * on stderr names the field and the problem), 2 a usage error.
 *
 * Threads: the calling thread only.
 */
#ifndef SL_TOOLS_TOOLS_H
#define SL_TOOLS_TOOLS_H

/* `sluice size` (tools/size_cmd.c over tools/size.h). */
int sl_tool_size(int argc, char **argv);
/* `sluice simulate` (tools/simulate.c). */
int sl_tool_simulate(int argc, char **argv);

#endif
