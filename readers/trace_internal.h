/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What trace.c (the public API, format choice, block storage) shares with
 * the format readers: error messages, number parsing, the reader itself,
 * and struct trace_format, the table of functions through which trace.c
 * drives a format.  Each format is one file (trace_ppt.c, trace_accelsim.c)
 * that defines one const struct trace_format and exports nothing else;
 * trace.c lists them.
 */
#ifndef SS_TRACE_INTERNAL_H
#define SS_TRACE_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "block_builder.h"
#include "linereader.h"
#include "trace.h"

/* ---- errors ------------------------------------------------------------- */



/* Text as a message quotes it: printable ASCII, at most SHOWN_MAX bytes. */
#define SHOWN_MAX 60
struct shown { char s[SHOWN_MAX + 4]; };
const char *trace_show(struct shown *buf, const char *tok, size_t len);

/* ---- numbers: inline, they run for every token ------------------------- */

extern const int8_t trace_hexval[256];	/* digit value + 1; 0: not a digit */

/* Hexadecimal with an optional 0x, at most 64 bits. */
static inline bool parse_hex64(const char *s, size_t n, uint64_t *v)
{
	uint64_t acc = 0;

	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		n -= 2;
	}
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		int d = trace_hexval[(unsigned char)s[i]] - 1;

		if (d < 0 || acc >> 60)
			return false;
		acc = acc << 4 | (uint64_t)d;
	}
	*v = acc;
	return true;
}

/*
 * Address tokens, which make up most of a trace's bytes, sixteen bytes at
 * a time.  scan_hex(p, &v) reads the hex digits at p (no 0x) into v and
 * returns the first byte that is not a digit, p itself when there is none,
 * or NULL for more than 16 digits (leading zeros may still fit in 64 bits:
 * parse_hex64 decides those).  It reads 17 bytes from p, which the line
 * reader's LR_SLACK allows.  scan_hex_sse2 (on x86-64, where SSE2 is
 * always there) and scan_hex_swar (anywhere, eight bytes per word) give
 * the same answers; the tests compare both with parse_hex64.
 */
#define SWAR_ONES UINT64_C(0x0101010101010101)

static inline uint64_t swar_load(const char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return GUINT64_FROM_LE(w);
}

/* The bytes of w that are not hex digits, as each byte's high bit. */
static inline uint64_t swar_nonhex(uint64_t w)
{
	const uint64_t high = SWAR_ONES * 0x80;
	uint64_t y = w & ~high;			/* bytes 0..0x7f: no carries */
	uint64_t z = y | SWAR_ONES * 0x20;	/* 'A'..'F' as 'a'..'f' */
	uint64_t digit = (y + SWAR_ONES * (0x80 - '0')) &
			 ~(y + SWAR_ONES * (0x80 - '9' - 1));
	uint64_t alpha = (z + SWAR_ONES * (0x80 - 'a')) &
			 ~(z + SWAR_ONES * (0x80 - 'f' - 1));

	/* a byte >= 0x80 is never a digit */
	return ~((digit | alpha) & ~w) & high;
}

/* The first len (1..8) bytes of w, all digits, the first most significant. */
static inline uint64_t swar_pack(uint64_t w, unsigned len)
{
	/* '0'..'9' -> 0..9 by the low nibble; letters (bit 6 set) + 9 */
	uint64_t x = (w & SWAR_ONES * 0x0f) + ((w >> 6) & SWAR_ONES) * 9;

	x = GUINT64_SWAP_LE_BE(x << (8 * (8 - len)));
	x = (x | x >> 4) & UINT64_C(0x00ff00ff00ff00ff);
	x = (x | x >> 8) & UINT64_C(0x0000ffff0000ffff);
	return (x | x >> 16) & UINT64_C(0xffffffff);
}

static inline const char *scan_hex_swar(const char *p, uint64_t *v)
{
	uint64_t w0 = swar_load(p), w1;
	uint64_t stop = swar_nonhex(w0);
	unsigned len;

	if (stop) {
		len = (unsigned)__builtin_ctzll(stop) >> 3;
		if (len)
			*v = swar_pack(w0, len);
		return p + len;
	}
	w1 = swar_load(p + 8);
	stop = swar_nonhex(w1);
	if (!stop) {
		if (trace_hexval[(unsigned char)p[16]])
			return NULL;
		*v = swar_pack(w0, 8) << 32 | swar_pack(w1, 8);
		return p + 16;
	}
	len = (unsigned)__builtin_ctzll(stop) >> 3;
	*v = swar_pack(w0, 8) << (4 * len) | (len ? swar_pack(w1, len) : 0);
	return p + 8 + len;
}

#if defined(__SSE2__) && defined(__x86_64__)
#include <immintrin.h>
#define HAVE_SCAN_HEX_SSE2 1

/* The bytes of x that are hex digits, as bits of a mask. */
static inline unsigned sse2_hex_mask(__m128i x)
{
	__m128i low = _mm_or_si128(x, _mm_set1_epi8(0x20));
	/* c - lo + 0x80 < 0x80 + n (signed): lo <= c < lo + n */
	__m128i digit = _mm_cmplt_epi8(
		_mm_add_epi8(x, _mm_set1_epi8((char)(0x80 - '0'))),
		_mm_set1_epi8((char)(0x80 + 10)));
	__m128i alpha = _mm_cmplt_epi8(
		_mm_add_epi8(low, _mm_set1_epi8((char)(0x80 - 'a'))),
		_mm_set1_epi8((char)(0x80 + 6)));

	return (unsigned)_mm_movemask_epi8(_mm_or_si128(digit, alpha));
}

/* The value of the first len (1..16) bytes of x, all hex digits. */
static inline uint64_t sse2_hex_value(__m128i x, unsigned len)
{
	__m128i nib, pair;
	uint64_t packed;

	/*
	 * each digit's value: the low nibble, + 9 for a letter (bit 6); the
	 * bytes past the token are cut to 4 bits too, so that shifting them
	 * out below leaves nothing of them
	 */
	nib = _mm_and_si128(_mm_srli_epi16(x, 6), _mm_set1_epi8(1));
	nib = _mm_add_epi8(_mm_add_epi8(nib, _mm_slli_epi16(nib, 3)),
			   _mm_and_si128(x, _mm_set1_epi8(0x0f)));
	nib = _mm_and_si128(nib, _mm_set1_epi8(0x0f));
	/* two digits per byte, the first in the high nibble */
	pair = _mm_or_si128(
		_mm_slli_epi16(_mm_and_si128(nib, _mm_set1_epi16(0x00ff)), 4),
		_mm_srli_epi16(nib, 8));
	packed = (uint64_t)_mm_cvtsi128_si64(_mm_packus_epi16(pair, pair));
	/* the first digit the most significant; the bytes past len out */
	return __builtin_bswap64(packed) >> (4 * (16 - len));
}

static inline const char *scan_hex_sse2(const char *p, uint64_t *v)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	unsigned len = (unsigned)__builtin_ctz(~sse2_hex_mask(x));	/* bit 16 is clear */

	if (len == 16 && trace_hexval[(unsigned char)p[16]])
		return NULL;
	if (!len)
		return p;
	*v = sse2_hex_value(x, len);
	return p + len;
}

/*
 * The address token at p of a line that ends at end (a NUL), when it is
 * of the usual kind: 1 to 15 hex digits without 0x, then a space or the
 * line's end.  Its value into *v, and where the next token may start
 * (past the space; end + 1 at the line's end); NULL for any other token
 * (more digits, a prefix, spaces first, another separator), which the
 * caller's general path decides.  One load answers both the digits and
 * the separator, which is the whole of most tokens of a paper-format
 * line.  Reads 16 bytes from p, which the line reader's LR_SLACK allows.
 */
static inline const char *scan_hex_token_sse2(const char *p, const char *end,
					      uint64_t *v)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	unsigned len = (unsigned)__builtin_ctz(~sse2_hex_mask(x));
	unsigned space = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')));

	if (len - 1 > 14 || (!(space >> len & 1) && p + len != end))
		return NULL;
	*v = sse2_hex_value(x, len);
	return p + len + 1;
}

static inline const char *scan_hex(const char *p, uint64_t *v)
{
	return scan_hex_sse2(p, v);
}
#else
static inline const char *scan_hex(const char *p, uint64_t *v)
{
	return scan_hex_swar(p, v);
}
#endif

/* scan_hex_token_sse2's answers from scan_hex, anywhere. */
static inline const char *scan_hex_token_plain(const char *p, const char *end,
					       uint64_t *v)
{
	const char *q = scan_hex(p, v);

	if (!q || q == p || q - p > 15 || (*q != ' ' && q != end))
		return NULL;
	return q + 1;
}

/*
 * The first space from p on, or end when there is none before it (a line
 * of the line reader: *end is a NUL, LR_SLACK defined bytes after it).
 */
static inline char *find_space(char *p, const char *end)
{
#ifdef HAVE_SCAN_HEX_SSE2
	for (; p < end; p += 16) {
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)(const void *)p),
			_mm_set1_epi8(' ')));

		if (m)
			return p + __builtin_ctz(m) < end ? p + __builtin_ctz(m) : (char *)end;
	}
	return (char *)end;
#else
	while (p < end && *p != ' ')
		p++;
	return p;
#endif
}

static inline const char *scan_hex_token(const char *p, const char *end, uint64_t *v)
{
#ifdef HAVE_SCAN_HEX_SSE2
	return scan_hex_token_sse2(p, end, v);
#else
	return scan_hex_token_plain(p, end, v);
#endif
}

/*
 * The address tokens of a paper-format line, [p, end) past its opcode, at
 * once: when every byte there is a hex digit or a space and no token has
 * more than 16 digits, their values go to dst (room for (end - p) / 2 + 1)
 * and the count is returned; otherwise -1, having decided nothing, and
 * the caller reads the line token by token (which words any error).
 * Empty tokens (spaces in a row, at either end) are skipped, as there.
 * Per token, the per-token scanner classifies the 16 bytes from it and
 * checks what follows; here each 64 bytes of the line are classified
 * once, into bit masks, and a token's start and length are bit
 * operations.  Reads up to 63 bytes past end (a line of the line reader:
 * LR_SLACK allows it).
 */
#ifdef HAVE_SCAN_HEX_SSE2
/* Bit i: byte i of the 64 at p is a hex digit; *space: a space. */
static inline uint64_t sse2_hex_mask64(const char *p, uint64_t *space)
{
	uint64_t h = 0, s = 0;

	for (int k = 0; k < 4; k++) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));

		h |= (uint64_t)sse2_hex_mask(x) << (16 * k);
		s |= (uint64_t)(unsigned)_mm_movemask_epi8(
			_mm_cmpeq_epi8(x, _mm_set1_epi8(' '))) << (16 * k);
	}
	*space = s;
	return h;
}

/*
 * The `left` bytes from w (all 64 when left >= 64): their digits as bits
 * into *hex, and whether each is a digit or a space.
 */
static inline bool sse2_line_window(const char *w, size_t left, uint64_t *hex)
{
	uint64_t space, h = sse2_hex_mask64(w, &space);
	uint64_t in_line = left >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << left) - 1;

	*hex = h & in_line;
	return ((h | space) & in_line) == in_line;
}

static inline long scan_hex_line(const char *p, const char *end, uint64_t *dst)
{
	size_t len = (size_t)(end - p);
	uint64_t h, h_next = 0, carry = 0;
	long n = 0;

	if (len && !sse2_line_window(p, len, &h_next))
		return -1;
	for (size_t base = 0; base < len; base += 64) {
		uint64_t starts;

		/* the next window first: a token may run on into it */
		h = h_next;
		h_next = 0;
		if (len - base > 64 &&
		    !sse2_line_window(p + base + 64, len - base - 64, &h_next))
			return -1;
		starts = h & ~(h << 1 | carry);
		carry = h >> 63;
		for (; starts; starts &= starts - 1) {
			unsigned at = (unsigned)__builtin_ctzll(starts);
			/* the digits from `at` on, into the next window */
			uint64_t run = (uint64_t)(((unsigned __int128)h_next << 64 | h) >> at);

			/* more than 16 digits: the token's own path decides */
			if ((run & 0x1ffff) == 0x1ffff)
				return -1;
			dst[n++] = sse2_hex_value(_mm_loadu_si128(
				(const __m128i *)(const void *)(p + base + at)),
				(unsigned)__builtin_ctzll(~run));
		}
	}
	return n;
}

/* The digits (1 to 15) of the first token at p of a usual line (see
 * scan_hex_line_fixed), or 0: the line is none. */
static inline unsigned usual_digits(const char *p)
{
	unsigned digits = (unsigned)__builtin_ctz(~sse2_hex_mask(
		_mm_loadu_si128((const __m128i *)(const void *)p)));

	return digits <= 15 ? digits : 0;
}

/* The token of `digits` digits at q, then a space or the line's end, into
 * *v; false when q holds no such token. */
static inline bool usual_token(const char *q, const char *end, unsigned digits,
			       uint64_t *v)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)q);
	unsigned want = (1u << digits) - 1;	/* the digits, then a byte that is none */

	if ((sse2_hex_mask(x) & (want << 1 | 1)) != want ||
	    (q + digits < end && q[digits] != ' '))
		return false;
	*v = sse2_hex_value(x, digits);
	return true;
}

/* The usual line's tokens from q on, dst[n] on, one load each (see
 * scan_hex_line_fixed): how many the line has, or -1. */
static inline long usual_tokens(const char *q, const char *end, unsigned digits,
				uint64_t *dst, long n)
{
	for (; q + digits <= end; q += digits + 1)
		if (!usual_token(q, end, digits, &dst[n++]))
			return -1;
	/* past the last token's space (end), or its end (end + 1); bytes
	 * between, a shorter token or a space more, are not the usual line */
	return q >= end ? n : -1;
}

/*
 * scan_hex_line() of the usual paper-format line: tokens that all have the
 * first one's number of digits (1 to 15), each followed by one space or by
 * the line's end.  A 16-byte load per token checks and converts it, with
 * nothing to find: the line's tokens sit one period apart.  -1, having
 * decided nothing, for any other line (scan_hex_line() then reads it).
 * Reads up to 16 bytes from each token, which LR_SLACK allows.
 */
static inline long scan_hex_line_fixed(const char *p, const char *end, uint64_t *dst)
{
	unsigned digits = usual_digits(p);

	if (!digits)
		return p == end ? 0 : -1;
	return usual_tokens(p, end, digits, dst, 0);
}

/*
 * scan_hex_line_fixed() two tokens to an AVX2 register, on processors
 * that have it (scan_hex_line_usual() asks): the digits' classes, values
 * and pairs (one multiply-add) of both at once.  The same answer for
 * every line.
 */
__attribute__((target("avx2"))) static inline uint64_t
avx2_pair_values(__m256i x, unsigned digits, uint64_t *second)
{
	__m256i nib, pairs, packed;
	uint64_t a, b;

	/* each digit's value: the low nibble, + 9 for a letter (bit 6) */
	nib = _mm256_and_si256(_mm256_srli_epi16(x, 6), _mm256_set1_epi8(1));
	nib = _mm256_add_epi8(_mm256_add_epi8(nib, _mm256_slli_epi16(nib, 3)),
			      _mm256_and_si256(x, _mm256_set1_epi8(0x0f)));
	nib = _mm256_and_si256(nib, _mm256_set1_epi8(0x0f));
	/* two digits a byte, the first in the high nibble, then 8 bytes a lane */
	pairs = _mm256_maddubs_epi16(nib, _mm256_set1_epi16(0x0110));
	packed = _mm256_packus_epi16(pairs, pairs);
	a = (uint64_t)_mm256_extract_epi64(packed, 0);
	b = (uint64_t)_mm256_extract_epi64(packed, 2);
	*second = __builtin_bswap64(b) >> (4 * (16 - digits));
	return __builtin_bswap64(a) >> (4 * (16 - digits));
}

/* The bytes of x that are hex digits, as bits of a mask (sse2_hex_mask). */
__attribute__((target("avx2"))) static inline uint32_t avx2_hex_mask(__m256i x)
{
	__m256i low = _mm256_or_si256(x, _mm256_set1_epi8(0x20));
	__m256i digit = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(0x80 + 10)),
		_mm256_add_epi8(x, _mm256_set1_epi8((char)(0x80 - '0'))));
	__m256i alpha = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(0x80 + 6)),
		_mm256_add_epi8(low, _mm256_set1_epi8((char)(0x80 - 'a'))));

	return (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(digit, alpha));
}

__attribute__((target("avx2"))) static inline long
scan_hex_line_fixed_avx2(const char *p, const char *end, uint64_t *dst)
{
	unsigned digits = usual_digits(p), period = digits + 1;
	uint32_t want, seen;
	const char *q;
	long n = 0;

	if (!digits)
		return p == end ? 0 : -1;
	want = (1u << digits) - 1;
	seen = (1u << period) - 1;
	/* two tokens a turn while both are in the line */
	for (q = p; q + period + digits <= end; q += 2 * period) {
		__m256i x = _mm256_inserti128_si256(_mm256_castsi128_si256(
			_mm_loadu_si128((const __m128i *)(const void *)q)),
			_mm_loadu_si128((const __m128i *)(const void *)(q + period)), 1);

		if ((avx2_hex_mask(x) & (seen | seen << 16)) != (want | want << 16) ||
		    q[digits] != ' ' || (q + period + digits < end && q[period + digits] != ' '))
			return -1;
		dst[n] = avx2_pair_values(x, digits, &dst[n + 1]);
		n += 2;
	}
	return usual_tokens(q, end, digits, dst, n);	/* the last, if any */
}

/* scan_hex_line_fixed() the fastest way this processor has. */
static inline long scan_hex_line_usual(const char *p, const char *end, uint64_t *dst)
{
	if (__builtin_cpu_supports("avx2"))
		return scan_hex_line_fixed_avx2(p, end, dst);
	return scan_hex_line_fixed(p, end, dst);
}
#else
static inline long scan_hex_line_usual(const char *p, const char *end, uint64_t *dst)
{
	(void)p;
	(void)end;
	(void)dst;
	return -1;
}

static inline long scan_hex_line_fixed(const char *p, const char *end, uint64_t *dst)
{
	(void)p;
	(void)end;
	(void)dst;
	return -1;
}

static inline long scan_hex_line(const char *p, const char *end, uint64_t *dst)
{
	(void)p;
	(void)end;
	(void)dst;
	return -1;
}
#endif

/* Unsigned decimal, at most 64 bits. */
static inline bool parse_u64(const char *s, size_t n, uint64_t *v)
{
	uint64_t acc = 0;

	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9 || acc > (UINT64_MAX - d) / 10)
			return false;
		acc = acc * 10 + d;
	}
	*v = acc;
	return true;
}

/* Signed decimal with an optional sign, within int64_t. */
static inline bool parse_i64(const char *s, size_t n, int64_t *v)
{
	bool neg = false;
	uint64_t mag;

	if (n && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		s++;
		n--;
	}
	if (!parse_u64(s, n, &mag))
		return false;
	if (neg) {
		if (mag > (uint64_t)INT64_MAX + 1)
			return false;
		*v = (int64_t)(0 - mag);
	} else {
		if (mag > INT64_MAX)
			return false;
		*v = (int64_t)mag;
	}
	return true;
}

/* ---- the reader and the blocks of the current kernel ---------------------- */

/*
 * What reading one block takes, for formats whose blocks are each read on
 * their own (trace_format.load_block): a load of many blocks is shared
 * among several loaders, each on its own thread.  A loader's opcode
 * texts are interned through a cache of its own, so that the reader's
 * string chunk, which all loaders share, is locked only for a text the
 * loader has not seen yet in the kernel.
 */
/* block_loader.memo: 8 pairs of entries (loader_intern) */
#define LOADER_MEMO 16

struct loader_memo {
	const char *text;
	size_t len;
};

struct block_loader {
	struct line_reader lr;
	struct block_builder build;
	GString *path;
	GHashTable *opcodes;	/* text -> interned text, of the current kernel */
	/*
	 * In front of `opcodes`: the texts last met, by a hash of their
	 * bytes and length, since a kernel's lines mostly repeat a few
	 * opcodes and a table lookup costs a string hash.
	 */
	struct loader_memo memo[LOADER_MEMO];
	uint32_t kernel;	/* the kernel (trace_reader.n_read) they are of */
};

void loader_init(struct block_loader *l);
void loader_free(struct block_loader *l);

struct trace_reader {
	struct gpu_block_source source;	/* handed out; ops->load finds us */
	const struct trace_format *fmt;
	void *state;			/* the format's own, from its open() */
	char *dir;			/* the trace directory */
	struct gpu_kernel kernel;
	bool in_kernel;
	/*
	 * Opcode texts and the kernel name of the current kernel; interned so
	 * that a line holds a pointer, and cleared at the next kernel so that
	 * even a trace of ever new opcodes does not grow it.
	 */
	GStringChunk *strings;
	/* &block->id -> block: one allocation each, freed at the next kernel */
	GHashTable *loaded;
	/* a malformed kernel body: every later load reports it again */
	GError *failed;
	/* the block being built, reused from block to block */
	struct block_builder build;
	/* the caller's loader (load_block formats), and how many share a load */
	struct block_loader loader;
	unsigned n_loaders;
	/* blocks of the kernel whose file ends inside a line, and the lowest
	 * one's file (trace_block_cut; under `lock`) */
	uint64_t n_cut, first_cut;
	char *first_cut_name;
	/*
	 * strings and loaded, while loaders share a load (loader_intern,
	 * trace_store_block); a pthread mutex, which ThreadSanitizer sees
	 * (GLib's GMutex is futex calls in a library it does not instrument)
	 */
	pthread_mutex_t lock;
	uint32_t n_read;		/* kernels read so far */
	uint64_t *kernel_bytes;		/* per kernel in trace order, for progress */
	/*
	 * Bytes of the current kernel's files read so far, as stored, for a
	 * progress line inside a kernel (trace_set_bytes_read); read from
	 * other threads, so only through __atomic built-ins.
	 */
	uint64_t bytes_read;
};

/* The current kernel's bytes read so far (`add`: n more), for a format
 * whose struct trace_format says counts_bytes_read; any thread. */
static inline void trace_set_bytes_read(struct trace_reader *t, uint64_t n, bool add)
{
	if (add)
		__atomic_fetch_add(&t->bytes_read, n, __ATOMIC_RELAXED);
	else
		__atomic_store_n(&t->bytes_read, n, __ATOMIC_RELAXED);
}

const char *trace_intern(struct trace_reader *t, const char *s);
/* trace_intern for load_block, which may run on several threads at once. */
const char *loader_intern(struct trace_reader *t, struct block_loader *l,
			  const char *s, size_t len);

/*
 * The block built in t->build (builder_finish) stored for the current
 * kernel; false with *err when it cannot be built.
 */
bool trace_finish_block(struct trace_reader *t, uint64_t id, bool sort,
			GError **err);
const struct gpu_block *trace_find_block(struct trace_reader *t, uint64_t id);
/* Block `id`'s file `name` ended inside a line (its last line was kept). */
void trace_block_cut(struct trace_reader *t, uint64_t id, const char *name);
/* trace_finish_block for load_block, from the loader's builder. */
bool trace_store_block(struct trace_reader *t, struct block_builder *b,
		       uint64_t id, bool sort, GError **err);
/* The same for load_block, of block b built beforehand (builder_finish:
 * a read-ahead's), which the reader now owns. */
void trace_store_built(struct trace_reader *t, struct gpu_block *b);

/* ---- read-ahead ------------------------------------------------------------ */

/*
 * A thread of idle priority (SCHED_IDLE: it runs only on a core no other
 * thread wants) that builds the next kernel's blocks while one runs, for
 * a format to take when that kernel starts (the native and paper
 * formats, with loaders to share).  The format's function builds into
 * `blocks` (id -> the format's value) with its texts interned in
 * `strings` (g_string_chunk_insert_const, as the loads intern theirs),
 * touching nothing else that changes until it is joined, and returns at
 * trace_readahead_stopped() or at its first failure, keeping nothing of
 * it: the load that meets it again reports it.
 */
struct trace_readahead {
	size_t kernel;		/* the format's index of the kernel it builds */
	GThread *thread;	/* NULL: not running */
	int stop;		/* atomic: that kernel is starting, stop now */
	GStringChunk *strings;	/* that kernel's texts */
	GHashTable *blocks;	/* built so far; NULL: none started */
	GThreadFunc fn;
	void *data;
};

void trace_readahead_init(struct trace_readahead *ra);
/* The end of the read-ahead, whatever it did. */
void trace_readahead_clear(struct trace_readahead *ra);
/* Start fn(data) building kernel `kernel` into a new table whose values
 * free_value frees; nothing is started if no thread can be. */
void trace_readahead_start(struct trace_readahead *ra, size_t kernel,
			   GDestroyNotify free_value, GThreadFunc fn, void *data);
static inline bool trace_readahead_stopped(struct trace_readahead *ra)
{
	return __atomic_load_n(&ra->stop, __ATOMIC_RELAXED);
}
/*
 * As the format's kernel `next` starts (t->strings just emptied): the
 * read-ahead stopped and joined; if it built that kernel, its table is
 * returned (the caller's now) and its texts become t->strings, else
 * NULL, its work dropped.
 */
GHashTable *trace_readahead_take(struct trace_reader *t, struct trace_readahead *ra,
				 size_t next);
/* For tests: wait until it has built what it will, without stopping it;
 * how many blocks (0 when none runs). */
size_t trace_readahead_wait(struct trace_readahead *ra);

/* ---- the formats -------------------------------------------------------- */

/*
 * One trace format, as trace.c drives it.  trace_open() picks the format
 * (by its marker file, or as asked), sets t->dir and calls open(); the
 * other functions then come in the order of the public API, and close()
 * last, also after an open() that failed.
 */
struct trace_format {
	const char *name;		/* as the trace_source "format" names it */
	/*
	 * The file that makes a directory a trace of this format, and that
	 * open() starts from: app_config.py, kernelslist.g.  A directory
	 * with the markers of several formats is taken as the first listed.
	 */
	const char *marker;		/* NULL: the format is a single file */
	/*
	 * Instead of a marker, for a format whose files have no fixed name:
	 * whether directory `dir` is a trace of it, and how messages
	 * describe what it looks for ("NAME_00.trc").
	 */
	bool (*detect)(const char *dir);
	const char *marker_pattern;
	/* A file given as the trace whose name ends so is read as this
	 * format (NULL: none). */
	const char *suffix;
	/*
	 * The bytes a file of this format starts with (NULL: none); a file
	 * given as the trace that starts with them is read as this format,
	 * whatever its name.
	 */
	const char *magic;
	size_t magic_len;
	/*
	 * Whether a file of any name may be given as the marker (an Accel-Sim
	 * kernel list may be called anything); else only a file named
	 * `marker` is taken.  A file of no format's marker name goes to the
	 * first format that takes any name.
	 */
	bool any_name;
	/*
	 * Read the trace's index: `file` is the marker file (in t->dir, or as
	 * given).  The format keeps what it needs in t->state.
	 */
	bool (*open)(struct trace_reader *t, const char *file, GError **err);
	/* Free t->state (which may be half built, or NULL). */
	void (*close)(struct trace_reader *t);
	/*
	 * Fill t->kernel (id, name, dimensions, resources) for the next
	 * kernel, or set *end.  The reader has dropped the previous kernel's
	 * blocks and strings already.
	 */
	bool (*next_kernel)(struct trace_reader *t, bool *end, GError **err);
	/* Kernels in the trace. */
	size_t (*kernel_count)(const struct trace_reader *t);
	/* Bytes of the files of kernel i (in trace order), as stored. */
	uint64_t (*kernel_bytes)(struct trace_reader *t, size_t i);
	/*
	 * Build and store (trace_finish_block) the blocks ids[0..n-1] of the
	 * current kernel (ascending, none loaded yet) that the trace holds;
	 * the reader makes empty blocks of the others.
	 */
	bool (*load)(struct trace_reader *t, const uint64_t *ids, size_t n,
		     GError **err);
	/*
	 * Instead of load, for a format whose blocks are each read on their
	 * own (a file per block): build and store (trace_store_block) block
	 * `id` of the current kernel with loader l if the trace holds it.
	 * Several may run at once on different threads, each with its own
	 * loader: it may read t->kernel, t->dir and what open() and
	 * next_kernel() left in t->state, and change nothing of t but
	 * through loader_intern, trace_store_block, trace_store_built,
	 * trace_block_cut and trace_set_bytes_read.
	 */
	bool (*load_block)(struct trace_reader *t, struct block_loader *l,
			   uint64_t id, GError **err);
	/*
	 * Optional (NULL: `from`): the first block id >= from of the current
	 * kernel that the trace may hold, or UINT64_MAX; the blocks before it
	 * are known to be absent, so empty with nothing dropped.
	 */
	uint64_t (*next_stored)(struct trace_reader *t, uint64_t from);
	/*
	 * Optional (NULL: the trace is taken to hold the whole grid).  How
	 * many blocks of the current kernel's grid the trace holds (into
	 * *n), reading the rest of the kernel's trace if need be; false with
	 * *err on malformed input.
	 */
	bool (*count_stored)(struct trace_reader *t, uint64_t *n, GError **err);
	/* Optional (NULL: not offered): trace_set_loads_only. */
	void (*set_loads_only)(struct trace_reader *t);
	/* Optional (NULL: the format holds none): trace_keep_pyset_sectors. */
	void (*keep_pyset_sectors)(struct trace_reader *t);
	/* Optional (NULL: every block holds its lines): trace_stream_lines. */
	void (*stream_lines)(struct trace_reader *t);
	/* The format keeps trace_reader.bytes_read as it reads a kernel. */
	bool counts_bytes_read;
};

/*
 * What a streamed block's gpu_block.stream points at: the receivers'
 * operations, then how the reader frees such a block (the blocks of
 * trace_reader.loaded are freed with trace_block_free()).
 */
struct trace_block_stream {
	struct gpu_block_stream lines;	/* first */
	void (*free)(struct gpu_block *b);
};

void trace_block_free(gpointer block);

/*
 * For tests: native_readahead_wait (native.h) for a paper-format trace:
 * wait until the read-ahead of t's next kernel has built what it will;
 * how many blocks it built (0 when none runs).
 */
size_t ppt_readahead_wait(struct trace_reader *t);

#endif
