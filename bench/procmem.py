"""The storage part of a sluice process's resident memory, from /proc/PID/smaps.

In memory mode sluice's table data is LMDB's map (src/store/store.h, "Memory mode"):
private anonymous memory named [anon:sluice-storage] where the kernel names mappings
(CONFIG_ANON_VMA_NAME), else the process's largest anonymous mapping (the map reserves
gigabytes of address space; no heap arena comes near), or, where anonymous memory was
refused, the map of the unlinked tmpfs file ("data.mdb (deleted)"). In --data-dir mode
the data file's cached pages are not counted here.
"""
import re

_HEAD = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$")


def storage_kb(pid):
    """Resident KB of the in-memory table data of process 'pid' (0 if none)."""
    maps = []  # [name, size, rss kB, anonymous]
    try:
        with open(f"/proc/{pid}/smaps") as f:
            for line in f:
                m = _HEAD.match(line)
                if m:
                    maps.append([m.group(5).strip(), int(m.group(2), 16) - int(m.group(1), 16),
                                 0, m.group(4) == "0"])
                elif maps and line.startswith("Rss:"):
                    maps[-1][2] = int(line.split()[1])
    except OSError:
        return 0
    named = [m for m in maps if m[0] == "[anon:sluice-storage]"]
    if named:
        return sum(m[2] for m in named)
    anon = [m for m in maps if m[0] == "" and m[3]]
    big = max(anon, key=lambda m: m[1]) if anon else None
    if big and big[1] >= 1 << 30:
        return big[2]
    return sum(m[2] for m in maps if "data.mdb (deleted)" in m[0])
