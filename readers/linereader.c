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
#include <pthread.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sectorsim/engine.h>
#ifdef HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif
#include "linereader.h"

#ifdef HAVE_ISAL
/*
 * A gzip member from its header on: ISA-L checks the header and the CRC.
 * isal_inflate_init clears the output buffer too, which a member that
 * follows another must keep filling.
 */
static void isal_start(struct inflate_state *st)
{
	uint8_t *next_out = st->next_out;
	uint32_t avail_out = st->avail_out;

	isal_inflate_init(st);
	st->crc_flag = ISAL_GZIP;
	st->next_out = next_out;
	st->avail_out = avail_out;
}
#endif

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

/*
 * A compressed file of at most one read of input (LR_IN) is decoded by the
 * reader itself: a thread, its ring and their start cost more than
 * decoding it, and traces of many small kernels are common.
 */
static bool small_file(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		st.st_size >= 0 && st.st_size <= LR_IN;
}

static bool pipe_start(struct line_reader *r, GError **err);
static void pipe_stop(struct line_reader *r);
static void pipe_free(struct line_reader *r);

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
	pipe_stop(r);
	g_clear_error(&r->held_error);
#ifndef HAVE_ISAL
	if (r->codec == LR_GZIP)
		inflateEnd(&r->z);
	else
#endif
	if (r->codec == LR_XZ)
		lzma_end(&r->x);
	close(r->fd);
	r->fd = -1;
	g_clear_pointer(&r->name, g_free);
}

void lr_free(struct line_reader *r)
{
	lr_close(r);
	pipe_free(r);
	g_free(r->buf);
	g_free(r->in);
	g_free(r->isal);
	lr_init(r);
}

uint64_t lr_stored_offset(const struct line_reader *r)
{
	/* threaded, in_off is the decoding thread's: the chunk's end stands
	 * for it; else the input read so far, a buffer ahead of the text */
	return r->threaded ? r->taken_off : r->in_off;
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
		/* + 8: room for what ISA-L read past a gzip member (isal_give_back) */
		r->in = g_malloc(LR_IN + 8);
	r->head = r->tail = r->scan = 0;
	r->lineno = 0;
	r->eof = r->in_eof = r->dec_eof = false;
	r->cut_last = false;
	r->in_off = r->taken_off = 0;
	if (r->codec == LR_GZIP) {
#ifdef HAVE_ISAL
		struct inflate_state *st;

		if (!r->isal)
			r->isal = g_new0(struct inflate_state, 1);
		st = r->isal;
		isal_start(st);
		/* isal_inflate_init leaves the buffers: no input yet */
		st->next_in = NULL;
		st->avail_in = 0;
#else
		memset(&r->z, 0, sizeof(r->z));
		/* 16 +: gzip framing only, so that plain text is refused */
		if (inflateInit2(&r->z, 16 + MAX_WBITS) != Z_OK) {
			trace_error(err, name, 0, "cannot start the gzip decoder");
			close(fd);
			return false;
		}
#endif
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
	r->threaded = r->codec != LR_PLAIN && !small_file(fd);
	if (r->threaded && !pipe_start(r, err)) {
		lr_close(r);
		return false;
	}
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

#ifdef HAVE_ISAL
/*
 * At a member's end ISA-L may hold the next member's first bytes in its
 * bit buffer (up to 8, lowest first): they go back in front of the input
 * left, at the start of r->in, which has room for them.
 */
static void isal_give_back(struct line_reader *r, struct inflate_state *st,
			   const uint8_t **next, size_t *avail)
{
	unsigned held = (unsigned)(st->read_in_length > 0 ? st->read_in_length / 8 : 0);

	if (!held)
		return;
	memmove(r->in + held, *next, *avail);
	for (unsigned i = 0; i < held; i++)
		r->in[i] = (uint8_t)(st->read_in >> (8 * i));
	*next = r->in;
	*avail += held;
}

/*
 * decode_gzip with ISA-L's igzip: the same text, members and messages as
 * zlib's (a stream ended but for more input is truncated; anything ISA-L
 * refuses is corrupt, at the first byte it had not used).
 */
static bool decode_gzip(struct line_reader *r, char *dst, size_t room,
			size_t *got, GError **err)
{
	struct inflate_state *st = r->isal;

	st->next_out = (uint8_t *)dst;
	st->avail_out = (uint32_t)room;
	while (st->avail_out == room && !r->dec_eof) {
		const uint8_t *next = st->next_in;
		size_t avail = st->avail_in;
		int ret;

		if (!refill_in(r, &next, &avail, err))
			goto fail;
		st->next_in = (uint8_t *)next;
		st->avail_in = (uint32_t)avail;
		ret = isal_inflate(st);
		if (ret < 0) {
			codec_error(r, st->avail_in, "gzip data is corrupt", err);
			goto fail;
		}
		if (st->block_state == ISAL_BLOCK_FINISH) {
			/* another member may follow (concatenated gzip) */
			next = st->next_in;
			avail = st->avail_in;
			isal_give_back(r, st, &next, &avail);
			if (!refill_in(r, &next, &avail, err))
				goto fail;
			if (!avail) {
				r->dec_eof = true;
			} else if (next[0] != 0x1f || (avail > 1 && next[1] != 0x8b)) {
				/* not a member: zlib says corrupt at once, where
				 * ISA-L would wait for a whole header */
				codec_error(r, avail, "gzip data is corrupt", err);
				goto fail;
			} else {
				isal_start(st);
				st->next_in = (uint8_t *)next;
				st->avail_in = (uint32_t)avail;
			}
		} else if (r->in_eof && !st->avail_in && st->avail_out == room) {
			codec_error(r, 0, "gzip data is truncated", err);
			goto fail;
		}
	}
	*got = room - st->avail_out;
	return true;
fail:
	/* the text decoded before the error still counts: it comes first */
	*got = room - st->avail_out;
	return false;
}
#else
static bool decode_gzip(struct line_reader *r, char *dst, size_t room,
			size_t *got, GError **err)
{
	z_stream *z = &r->z;

	z->next_out = (Bytef *)dst;
	z->avail_out = (uInt)room;
	while (z->avail_out == room && !r->dec_eof) {
		const uint8_t *next = z->next_in;
		size_t avail = z->avail_in;
		int ret;

		if (!refill_in(r, &next, &avail, err))
			goto fail;
		z->next_in = (Bytef *)next;
		z->avail_in = (uInt)avail;
		ret = inflate(z, Z_NO_FLUSH);
		if (ret == Z_STREAM_END) {
			/* another member may follow (concatenated gzip) */
			next = z->next_in;
			avail = z->avail_in;
			if (!refill_in(r, &next, &avail, err))
				goto fail;
			z->next_in = (Bytef *)next;
			z->avail_in = (uInt)avail;
			if (!avail)
				r->dec_eof = true;
			else
				inflateReset(z);
		} else if (ret == Z_BUF_ERROR && r->in_eof && !z->avail_in) {
			codec_error(r, 0, "gzip data is truncated", err);
			goto fail;
		} else if (ret != Z_OK && ret != Z_BUF_ERROR) {
			codec_error(r, z->avail_in, "gzip data is corrupt", err);
			goto fail;
		}
	}
	*got = room - z->avail_out;
	return true;
fail:
	/* the text decoded before the error still counts: it comes first */
	*got = room - z->avail_out;
	return false;
}

#endif

static bool decode_xz(struct line_reader *r, char *dst, size_t room,
		      size_t *got, GError **err)
{
	lzma_stream *x = &r->x;

	x->next_out = (uint8_t *)dst;
	x->avail_out = room;
	while (x->avail_out == room && !r->dec_eof) {
		lzma_ret ret;

		if (!refill_in(r, &x->next_in, &x->avail_in, err))
			goto fail;
		ret = lzma_code(x, r->in_eof ? LZMA_FINISH : LZMA_RUN);
		if (ret == LZMA_STREAM_END) {
			r->dec_eof = true;
		} else if (ret == LZMA_BUF_ERROR) {
			codec_error(r, 0, "xz data is truncated", err);
			goto fail;
		} else if (ret == LZMA_MEM_ERROR) {
			codec_error(r, x->avail_in, "out of memory decoding xz data",
				    err);
			goto fail;
		} else if (ret == LZMA_OPTIONS_ERROR) {
			codec_error(r, x->avail_in,
				    "xz data uses unsupported options", err);
			goto fail;
		} else if (ret != LZMA_OK) {
			codec_error(r, x->avail_in, "xz data is corrupt", err);
			goto fail;
		}
	}
	*got = room - x->avail_out;
	return true;
fail:
	/* the text decoded before the error still counts: it comes first */
	*got = room - x->avail_out;
	return false;
}

/*
 * ---- the decoding thread ----
 * A compressed file bigger than LR_IN is decoded by a thread of its own into a ring of
 * LR_SLOTS chunks, which the reader copies into its line buffer as it
 * needs text; so inflating runs on another core while the simulation
 * consumes the lines before.  The thread owns the codec state (z, x, in,
 * in_off, dec_eof) from lr_open to lr_close; the lock guards the ring and
 * the verdict.  Text comes out as it would unthreaded, byte for byte,
 * and a codec error comes after all the text decoded before it.
 */
#define LR_SLOTS 4

struct lr_pipe {
	GThread *thread;
	/* POSIX's, not GLib's: ThreadSanitizer sees through these */
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* a slot filled or freed, or stop */
	char *slot[LR_SLOTS];	/* LR_CHUNK bytes each */
	size_t len[LR_SLOTS];
	uint64_t end_off[LR_SLOTS];	/* in_off when the slot was filled */
	unsigned head, count;	/* the filled slots: head .. head+count-1 */
	size_t used;		/* bytes of slot[head] already taken */
	bool done;		/* the thread decodes no more */
	bool stop;		/* lr_close wants the thread gone */
	GError *error;		/* why it stopped early, for the reader */
};

static gpointer decode_thread(gpointer data)
{
	struct line_reader *r = data;
	struct lr_pipe *p = r->pipe;
	GError *err = NULL;
	bool ok = true;

	pthread_mutex_lock(&p->lock);
	while (ok && !p->stop && !r->dec_eof) {
		unsigned k = (p->head + p->count) % LR_SLOTS;
		size_t got = 0;

		if (p->count == LR_SLOTS) {
			pthread_cond_wait(&p->cond, &p->lock);
			continue;
		}
		/* slot k is free: the reader never looks at it */
		pthread_mutex_unlock(&p->lock);
		ok = r->codec == LR_GZIP
			? decode_gzip(r, p->slot[k], LR_CHUNK, &got, &err)
			: decode_xz(r, p->slot[k], LR_CHUNK, &got, &err);
		pthread_mutex_lock(&p->lock);
		if (got) {
			p->len[k] = got;
			p->end_off[k] = r->in_off;
			p->count++;
		}
		pthread_cond_broadcast(&p->cond);
	}
	p->error = err;
	p->done = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static bool pipe_start(struct line_reader *r, GError **err)
{
	struct lr_pipe *p = r->pipe;
	GError *why = NULL;

	if (!p) {
		p = r->pipe = g_new0(struct lr_pipe, 1);
		pthread_mutex_init(&p->lock, NULL);
		pthread_cond_init(&p->cond, NULL);
		for (unsigned k = 0; k < LR_SLOTS; k++)
			p->slot[k] = g_malloc(LR_CHUNK);
	}
	p->head = p->count = 0;
	p->used = 0;
	p->done = p->stop = false;
	p->thread = g_thread_try_new("sectorsim-inflate", decode_thread, r, &why);
	if (!p->thread) {
		trace_error(err, r->name, 0, "cannot start a decoding thread: %s",
			    why->message);
		g_error_free(why);
		return false;
	}
	return true;
}

static void pipe_stop(struct line_reader *r)
{
	struct lr_pipe *p = r->pipe;

	if (!p || !p->thread)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	g_thread_join(p->thread);
	p->thread = NULL;
	g_clear_error(&p->error);
}

static void pipe_free(struct line_reader *r)
{
	struct lr_pipe *p = r->pipe;

	if (!p)
		return;
	pipe_stop(r);
	for (unsigned k = 0; k < LR_SLOTS; k++)
		g_free(p->slot[k]);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	g_free(p);
	r->pipe = NULL;
}

/* Decoded text from the thread: up to room bytes, or the end, or its error. */
static bool fill_piped(struct line_reader *r, size_t room, GError **err)
{
	struct lr_pipe *p = r->pipe;
	size_t n;
	char *src;

	pthread_mutex_lock(&p->lock);
	while (!p->count && !p->done)
		pthread_cond_wait(&p->cond, &p->lock);
	if (!p->count) {
		bool ok = !p->error;

		if (p->error)
			g_propagate_error(err, g_error_copy(p->error));
		else
			r->eof = true;
		pthread_mutex_unlock(&p->lock);
		return ok;
	}
	src = p->slot[p->head] + p->used;
	n = MIN(room, p->len[p->head] - p->used);
	r->taken_off = p->end_off[p->head];
	pthread_mutex_unlock(&p->lock);
	/* the thread leaves a filled slot alone until it is given back */
	memcpy(r->buf + r->tail, src, n);
	r->tail += n;
	pthread_mutex_lock(&p->lock);
	p->used += n;
	if (p->used == p->len[p->head]) {
		p->head = (p->head + 1) % LR_SLOTS;
		p->count--;
		p->used = 0;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return true;
}

/*
 * Decoded text without the thread: as fill_piped gives it, the text
 * decoded before a codec error first, then the error at the next call.
 */
static bool fill_unthreaded(struct line_reader *r, size_t room, GError **err)
{
	GError *why = NULL;
	size_t got = 0;
	bool ok;

	if (r->held_error) {
		g_propagate_error(err, g_steal_pointer(&r->held_error));
		return false;
	}
	ok = r->codec == LR_GZIP
		? decode_gzip(r, r->buf + r->tail, room, &got, &why)
		: decode_xz(r, r->buf + r->tail, room, &got, &why);
	r->tail += got;
	if (!ok) {
		if (got) {
			r->held_error = why;
			return true;
		}
		g_propagate_error(err, why);
		return false;
	}
	if (!got)
		r->eof = true;
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
	bool ok = r->codec == LR_PLAIN ? fill_plain(r, room, err)
		: r->threaded ? fill_piped(r, room, err)
		: fill_unthreaded(r, room, err);

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
			r->cut_last = true;
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
