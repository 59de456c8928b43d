/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Line input for the trace readers: a file read line by line, plain, gzip
 * or xz (by its suffix), decompressed a chunk at a time and never whole, so
 * that a trace of any size is read in constant memory.  A compressed file
 * is decoded on a thread of its own, a few chunks ahead, so that inflating
 * overlaps the simulation.  Lines come back in place in the reader's
 * buffer, writable, without a copy.
 */
#ifndef SS_LINEREADER_H
#define SS_LINEREADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <glib.h>
#include <zlib.h>
#include <lzma.h>

/*
 * The readers' one error message: "FILE:LINE: message", or "FILE: message"
 * when LINE is 0 (the file as a whole), as an SS_ERROR_INPUT.
 */
void trace_error(GError **err, const char *file, uint64_t line,
		 const char *fmt, ...) G_GNUC_PRINTF(4, 5);

enum lr_codec { LR_PLAIN, LR_GZIP, LR_XZ };

struct line_reader {
	enum lr_codec codec;
	int fd;			/* -1 when closed */
	char *name;		/* as error messages name the file */
	uint64_t lineno;	/* of the line last returned */
	/* decoded text; buf[head, tail) not yet returned, scan = where the
	 * search for the next line end resumes */
	char *buf;
	size_t cap, head, tail, scan;
	bool eof;		/* no more decoded text will come */
	bool cut_last;		/* the last line returned had no line end */
	/*
	 * compressed input, decoded on a thread of its own (struct lr_pipe,
	 * linereader.c), which alone touches these while the file is open;
	 * or, for a small file, by the reader itself (threaded false)
	 */
	bool threaded;
	GError *held_error;	/* unthreaded: a codec error after text */
	unsigned char *in;
	bool in_eof, dec_eof;
	uint64_t in_off;	/* bytes of the file read so far */
	/* bytes of the file behind the text the reader has taken (for
	 * progress; threaded: up to the end of the chunk it reads) */
	uint64_t taken_off;
	z_stream z;		/* .gz without ISA-L */
	/* .gz with ISA-L (HAVE_ISAL): its struct inflate_state, tens of KiB,
	 * kept from file to file like buf */
	void *isal;
	lzma_stream x;
	struct lr_pipe *pipe;	/* kept from file to file, like buf */
};

/*
 * A reader keeps its buffers from one file to the next (a ppt kernel opens
 * a file per block): lr_init once, then lr_open / lr_close per file, and
 * lr_free at the end.
 */
void lr_init(struct line_reader *r);
void lr_free(struct line_reader *r);
/*
 * Open `path`; its codec comes from the suffix (.gz, .xz, else plain).
 * `name` is what messages call it: "NAME: what went wrong" (SS_ERROR,
 * SS_ERROR_INPUT).  A missing file sets *missing (when not NULL) and
 * returns false with *err left NULL, so that a caller for whom absence is
 * normal (a ppt block file) need not build an error.
 */
bool lr_open(struct line_reader *r, const char *path, const char *name,
	     bool *missing, GError **err);
/* How far into the file, in bytes as stored (compressed), the text taken
 * so far reaches: for a progress line, exact to a buffer or a chunk. */
uint64_t lr_stored_offset(const struct line_reader *r);
/*
 * The next line without its end ("\n", "\r\n"), NUL-terminated and writable
 * until the next call: 1, 0 at the end, -1 with *err set.  The LR_SLACK
 * bytes from the NUL on may be read (they are defined, their values
 * arbitrary), so that a scanner can read 16 bytes at a time and the byte
 * after them, or classify a line 64 bytes at a time (scan_hex_line).
 */
#define LR_SLACK 64
int lr_next(struct line_reader *r, char **line, size_t *len, GError **err);
void lr_close(struct line_reader *r);
bool lr_is_open(const struct line_reader *r);

#endif
