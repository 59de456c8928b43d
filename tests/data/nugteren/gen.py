#!/usr/bin/python3
"""Kernels in the .trc format of Nugteren et al.'s cache model, each made to
stress one of its rules (doc/nugteren-model.md); the model's numbers for them
are in expected-*.json beside this file (build-aux/nugteren-expected).

    gen.py OUTDIR        writes OUTDIR/BENCH/BENCH_KK.trc for every BENCH

Every kernel keeps to what the model defines: the thread count is a multiple
of the block size, no thread of a warp makes more loads than an earlier one
(coalescing would read past the earlier one's list), one size at each
index, thread ids stay below 32768 and blocks at most 1536 threads.  Deterministic: no random numbers but an own xorshift.
"""
import os
import sys

A, B, C = 0x10000000, 0x20000000, 0x30000000
LINE = 128


def xorshift(seed):
    x = seed or 1
    while True:
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        yield x


def first():
    """The example of issue 19: 4096 threads in blocks of 256; thread t
    loads a[t], b[t] and c[(33 t) mod 4096], then stores d[t] (floats)."""
    rows = []
    for t in range(4096):
        rows += [(t, 0, A + 4 * t, 4), (t, 0, B + 4 * t, 4),
                 (t, 0, C + 4 * ((33 * t) % 4096), 4), (t, 1, 0x40000000 + 4 * t, 4)]
    return (256, 1, 1), rows


def coal():
    """Coalesced 4-byte loads, two per thread, and a store: 16 blocks of
    128 threads, more than the 8 that run at a time."""
    rows = []
    for t in range(2048):
        rows += [(t, 0, A + 4 * t, 4), (t, 0, B + 4 * t, 4), (t, 1, C + 4 * t, 4)]
    return (128, 1, 1), rows


def strided():
    """Each lane its own line: 32 misses per warp against 64 MSHRs."""
    rows = []
    for t in range(1024):
        rows.append((t, 0, A + LINE * t, 4))
        rows.append((t, 0, A + LINE * t + 64, 4))
    return (256, 1, 1), rows


def wide():
    """8- and 16-byte loads: coalesced per half and per quarter warp, so a
    value all lanes read is a request per group."""
    rows = []
    for t in range(1024):
        rows.append((t, 0, A + 8 * t, 8))
        rows.append((t, 0, B + 16 * t, 16))
        rows.append((t, 0, C + 8 * (t // 64), 8))
        rows.append((t, 0, C + 4096 + 16 * (t // 64), 16))
        rows.append((t, 0, A + 8 * t, 8))
    return (64, 1, 1), rows


def odd():
    """12-byte loads (three portions of 10 lanes: lanes 30 and 31 go only
    in a visit where lane 0 loads less), between 4-byte ones, and lanes
    with fewer loads than lane 0."""
    rows = []
    for t in range(512):
        rows.append((t, 0, A + 12 * t, 12))
        rows.append((t, 0, B + 4 * t, 4))
        rows.append((t, 0, C + 12 * ((t * 5) % 512), 12))
        if t % 32 < 20:
            rows.append((t, 0, A + 4096 + 12 * t, 12))
    return (128, 1, 1), rows


def conflict():
    """Every warp reads whole lines that all fall in one set (they differ
    only in address bits the set hash ignores), more lines than ways."""
    rows = []
    for t in range(512):
        w = t // 32
        for j in range(6):
            line = ((w + j) % 9) << 13      # line-address bit 13 and up
            rows.append((t, 0, (line * LINE) + 4 * (t % 32), 4))
    return (32, 1, 1), rows


def reuse():
    """A row of 8 floats per thread (uncoalesced, reused within a line) and
    a broadcast; blocks of 48 threads, so each block's second warp is short."""
    rows = []
    for t in range(768):
        for j in range(8):
            rows.append((t, 0, A + 4 * (t * 8 + j), 4))
            rows.append((t, 0, B + 4 * j, 4))
    return (48, 1, 1), rows


def latmiss():
    """All warps read the same few lines at about the same time: misses on
    lines still in flight (latency misses)."""
    rows = []
    for t in range(1024):
        for j in range(4):
            rows.append((t, 0, A + LINE * j + 4 * (t % 32), 4))
    return (256, 1, 1), rows


def mixed():
    """Loads and stores interleaved (the model drops stores before it
    numbers a thread's accesses), scattered by a fixed pseudo-random walk."""
    rows = []
    r = xorshift(19)
    table = [next(r) % 512 for _ in range(64)]
    for t in range(1024):
        lane_base = t % 32
        for j in range(5):
            rows.append((t, 0, A + LINE * table[(t // 32 + j) % 64] + 4 * lane_base, 4))
            rows.append((t, 1, C + 4 * t, 4))
    return (128, 1, 1), rows


def capacity():
    """Each warp walks a working set of 192 lines (24 KiB) twice, a line
    per lane, from a place of its own: larger than 16 KiB, smaller than
    48 KiB."""
    rows = []
    for t in range(512):
        w = t // 32
        for j in range(12):
            line = (j * 32 + t % 32 + w * 13) % 192
            rows.append((t, 0, A + LINE * line, 4))
    return (256, 1, 1), rows


def mshr():
    """Uncoalesced loads over a small, reused footprint: 32 lines a warp,
    so that few MSHRs stall lane 0 and reorder the warps."""
    rows = []
    for t in range(1024):
        w = t // 32
        for j in range(4):
            rows.append((t, 0, A + LINE * (((t % 32) * 3 + w + j * 5) % 96), 4))
    return (128, 1, 1), rows


def threads():
    """Blocks of 200 threads (7 warps, the last of 8 lanes), 10 of them:
    the model keeps 1536 / 200 = 7 blocks at a time, counting threads,
    where counting warps (48 a core) would give 6."""
    rows = []
    for t in range(2000):
        for j in range(3):
            rows.append((t, 0, A + 4 * ((t * 7 + j * 509) % 4096), 4))
    return (200, 1, 1), rows


def multi(k):
    """Three kernels of one program, each with a pattern of its own."""
    return [coal, strided, latmiss][k]()


BENCHES = {
    "first": [first],
    "coal": [coal],
    "strided": [strided],
    "wide": [wide],
    "conflict": [conflict],
    "reuse": [reuse],
    "latmiss": [latmiss],
    "mixed": [mixed],
    "capacity": [capacity],
    "mshr": [mshr],
    "threads": [threads],
    "odd": [odd],
    "multi": [lambda: multi(0), lambda: multi(1), lambda: multi(2)],
}


def write(path, dims, rows):
    with open(path, "w") as f:
        f.write("blocksize: %d %d %d\n" % dims)
        for tid, d, addr, n in rows:
            f.write("%d %d %d %d\n" % (tid, d, addr, n))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    for name, kernels in BENCHES.items():
        d = os.path.join(sys.argv[1], name)
        os.makedirs(d, exist_ok=True)
        for k, fn in enumerate(kernels):
            dims, rows = fn()
            write(os.path.join(d, "%s_%02d.trc" % (name, k)), dims, rows)


if __name__ == "__main__":
    main()
