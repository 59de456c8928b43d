/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The trace readers' line input (linereader.h): a file read a chunk at a
 * time into one buffer, through zlib or liblzma when it is compressed, and
 * cut into lines in place.  The buffer is sized from the first file (a
 * small plain file needs less than a chunk) and grows only for a line
 * longer than it or a file longer than its size said; its LR_SLACK bytes
 * past the text are zeroed so that word-at-a-time scanners may read them.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sectorsim/engine.h>
#include "linereader.h"

void trace_error(GError **err, const char *file, uint64_t line,
		 const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (line)
		ss_set_error(err, SS_ERROR_INPUT, "%s:%" G_GUINT64_FORMAT ": %s",
			     file, line, msg);
	else
		ss_set_error(err, SS_ERROR_INPUT, "%s: %s", file, msg);
	g_free(msg);
}


#define LR_CHUNK (256 * 1024)	/* decoded text read at a time */
#define LR_IN (64 * 1024)	/* compressed bytes read at a time */
#define LR_MIN 4096		/* the least buffer, e.g. for an empty file */

/*
 * The buffer a file needs at first: a plain file smaller than half a chunk
 * is read whole into its size and half again (so that the read that finds
 * its end has room, and the buffer does not grow for it), one of size 0
 * (empty, or in /proc) into LR_MIN, growing if it holds more; anything
 * else (compressed, bigger, not a regular file) gets a chunk.  A small
 * file then costs a small allocation, not a chunk: one input of a fuzz
 * target is one such file.
 */
static size_t first_cap(int fd, enum lr_codec codec)
{
	struct stat st;
	size_t n;

	if (codec != LR_PLAIN || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < 0 || st.st_size >= LR_CHUNK / 2)
		return LR_CHUNK;
	n = (size_t)st.st_size;
	return MAX(n + n / 2 + 2, (size_t)LR_MIN);
}

void lr_init(struct line_reader *r)
{
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

bool lr_is_open(const struct line_reader *r)
{
	return r->fd >= 0;
}

void lr_close(struct line_reader *r)
{
	if (r->fd < 0)
		return;
	if (r->codec == LR_GZIP)
		inflateEnd(&r->z);
	else if (r->codec == LR_XZ)
		lzma_end(&r->x);
	close(r->fd);
	r->fd = -1;
	g_clear_pointer(&r->name, g_free);
}

void lr_free(struct line_reader *r)
{
	lr_close(r);
	g_free(r->buf);
	g_free(r->in);
	lr_init(r);
}

bool lr_open(struct line_reader *r, const char *path, const char *name,
	     bool *missing, GError **err)
{
	int fd;

	lr_close(r);
	if (missing)
		*missing = false;
	do
		fd = open(path, O_RDONLY | O_CLOEXEC);
	while (fd < 0 && errno == EINTR && !ss_interrupted());
	if (fd < 0) {
		if (errno == ENOENT && missing)
			*missing = true;
		else
			trace_error(err, name, 0, "cannot open: %s",
				    g_strerror(errno));
		return false;
	}
	r->codec = g_str_has_suffix(path, ".gz") ? LR_GZIP
		: g_str_has_suffix(path, ".xz") ? LR_XZ : LR_PLAIN;
	{
		size_t need = first_cap(fd, r->codec);

		/* kept from the last file when big enough; its text is gone */
		if (!r->buf || r->cap < need) {
			g_free(r->buf);
			r->cap = need;
			r->buf = g_malloc(r->cap + LR_SLACK);
		}
	}
	if (r->codec != LR_PLAIN && !r->in)
		r->in = g_malloc(LR_IN);
	r->head = r->tail = r->scan = 0;
	r->lineno = 0;
	r->eof = r->in_eof = false;
	r->in_off = 0;
	if (r->codec == LR_GZIP) {
		memset(&r->z, 0, sizeof(r->z));
		/* 16 +: gzip framing only, so that plain text is refused */
		if (inflateInit2(&r->z, 16 + MAX_WBITS) != Z_OK) {
			trace_error(err, name, 0, "cannot start the gzip decoder");
			close(fd);
			return false;
		}
	} else if (r->codec == LR_XZ) {
		r->x = (lzma_stream)LZMA_STREAM_INIT;
		if (lzma_stream_decoder(&r->x, UINT64_MAX, LZMA_CONCATENATED)
		    != LZMA_OK) {
			trace_error(err, name, 0, "cannot start the xz decoder");
			close(fd);
			return false;
		}
	}
	r->fd = fd;
	r->name = g_strdup(name);
	return true;
}

static bool read_raw(struct line_reader *r, void *dst, size_t max, size_t *got,
		     GError **err)
{
	ssize_t n;

	do
		n = read(r->fd, dst, max);
	while (n < 0 && errno == EINTR && !ss_interrupted());
	if (n < 0) {
		trace_error(err, r->name, 0, "cannot read: %s", g_strerror(errno));
		return false;
	}
	*got = (size_t)n;
	r->in_off += (uint64_t)n;
	return true;
}

/* More compressed input when the decoder has used up what it had. */
static bool refill_in(struct line_reader *r, const uint8_t **next,
		      size_t *avail, GError **err)
{
	size_t got;

	if (*avail || r->in_eof)
		return true;
	if (!read_raw(r, r->in, LR_IN, &got, err))
		return false;
	if (!got)
		r->in_eof = true;
	*next = r->in;
	*avail = got;
	return true;
}

static void codec_error(struct line_reader *r, size_t unread, const char *what,
			GError **err)
{
	trace_error(err, r->name, 0, "%s (at byte %" G_GUINT64_FORMAT ")", what,
		    r->in_off - unread);
}

static bool fill_gzip(struct line_reader *r, size_t room, GError **err)
{
	z_stream *z = &r->z;

	z->next_out = (Bytef *)r->buf + r->tail;
	z->avail_out = (uInt)room;
	while (z->avail_out == room && !r->eof) {
		const uint8_t *next = z->next_in;
		size_t avail = z->avail_in;
		int ret;

		if (!refill_in(r, &next, &avail, err))
			return false;
		z->next_in = (Bytef *)next;
		z->avail_in = (uInt)avail;
		ret = inflate(z, Z_NO_FLUSH);
		if (ret == Z_STREAM_END) {
			/* another member may follow (concatenated gzip) */
			next = z->next_in;
			avail = z->avail_in;
			if (!refill_in(r, &next, &avail, err))
				return false;
			z->next_in = (Bytef *)next;
			z->avail_in = (uInt)avail;
			if (!avail)
				r->eof = true;
			else
				inflateReset(z);
		} else if (ret == Z_BUF_ERROR && r->in_eof && !z->avail_in) {
			codec_error(r, 0, "gzip data is truncated", err);
			return false;
		} else if (ret != Z_OK && ret != Z_BUF_ERROR) {
			codec_error(r, z->avail_in, "gzip data is corrupt", err);
			return false;
		}
	}
	r->tail += room - z->avail_out;
	return true;
}

static bool fill_xz(struct line_reader *r, size_t room, GError **err)
{
	lzma_stream *x = &r->x;

	x->next_out = (uint8_t *)r->buf + r->tail;
	x->avail_out = room;
	while (x->avail_out == room && !r->eof) {
		lzma_ret ret;

		if (!refill_in(r, &x->next_in, &x->avail_in, err))
			return false;
		ret = lzma_code(x, r->in_eof ? LZMA_FINISH : LZMA_RUN);
		if (ret == LZMA_STREAM_END) {
			r->eof = true;
		} else if (ret == LZMA_BUF_ERROR) {
			codec_error(r, 0, "xz data is truncated", err);
			return false;
		} else if (ret == LZMA_MEM_ERROR) {
			codec_error(r, x->avail_in, "out of memory decoding xz data",
				    err);
			return false;
		} else if (ret == LZMA_OPTIONS_ERROR) {
			codec_error(r, x->avail_in,
				    "xz data uses unsupported options", err);
			return false;
		} else if (ret != LZMA_OK) {
			codec_error(r, x->avail_in, "xz data is corrupt", err);
			return false;
		}
	}
	r->tail += room - x->avail_out;
	return true;
}

static bool fill_plain(struct line_reader *r, size_t room, GError **err)
{
	size_t got;

	if (!read_raw(r, r->buf + r->tail, room, &got, err))
		return false;
	if (!got)
		r->eof = true;
	r->tail += got;
	return true;
}

static bool fill(struct line_reader *r, GError **err)
{
	size_t room = r->cap - 1 - r->tail;	/* one byte kept for a NUL */
	bool ok = r->codec == LR_GZIP ? fill_gzip(r, room, err)
		: r->codec == LR_XZ ? fill_xz(r, room, err)
		: fill_plain(r, room, err);

	/* what a word-at-a-time scan may read past the text is defined */
	memset(r->buf + r->tail, 0, LR_SLACK);
	return ok;
}

static int take_line(struct line_reader *r, size_t end, size_t next,
		     char **line, size_t *len)
{
	char *s = r->buf + r->head;
	size_t n = end - r->head;

	if (n && s[n - 1] == '\r')
		n--;
	s[n] = '\0';
	r->head = r->scan = next;
	r->lineno++;
	*line = s;
	*len = n;
	return 1;
}

int lr_next(struct line_reader *r, char **line, size_t *len, GError **err)
{
	for (;;) {
		char *nl = memchr(r->buf + r->scan, '\n', r->tail - r->scan);

		if (nl) {
			size_t end = (size_t)(nl - r->buf);

			return take_line(r, end, end + 1, line, len);
		}
		r->scan = r->tail;
		if (r->eof) {
			if (r->head == r->tail)
				return 0;
			return take_line(r, r->tail, r->tail, line, len);
		}
		if (r->head) {
			memmove(r->buf, r->buf + r->head, r->tail - r->head);
			r->tail -= r->head;
			r->scan -= r->head;
			r->head = 0;
		}
		if (r->cap - 1 - r->tail < MIN(r->cap, (size_t)LR_CHUNK) / 4) {
			/* a line longer than the buffer (or a file longer
			 * than its size said) */
			r->cap *= 2;
			r->buf = g_realloc(r->buf, r->cap + LR_SLACK);
		}
		if (!fill(r, err))
			return -1;
	}
}
