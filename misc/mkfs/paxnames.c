/*
 * paxnames.c: walk a tar stream's headers for the names its pax records
 * hold (see paxnames.h for why).
 *
 * The layout (POSIX.1-2001 pax, ustar, and GNU's additions): 512-byte
 * blocks; a header block (name at 0, size at 124 in octal or, with bit 7
 * of its first byte set, base-256, checksum at 148, type at 156, "ustar"
 * at 257), then the data rounded up to whole blocks; two zero blocks end
 * the archive. Type 'x' carries records "LEN KEY=VALUE\n" for the next
 * header ("path", "linkpath", "size", and "GNU.sparse.name", the real name
 * of a sparse file); 'g' carries records for all later headers; GNU's 'L'
 * and 'K' carry long names (raw bytes, which libarchive keeps as they
 * are) and 'V' a volume label; GNU's old sparse type 'S' may be followed
 * by extension headers (byte 482, then byte 504 of each, says whether
 * another follows). Every other header is one libarchive entry.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <archive.h>
#include <archive_entry.h>
#include <et/com_err.h>

#include "array.h"
#include "mkfs.h"
#include "paxnames.h"

#define TAR_BLOCK 512
#define MAX_RECORDS (16 << 20)	/* bytes of pax records for one header */

struct stream {
	struct archive *a;
	const char *path;
	unsigned long long offset;	/* in the decompressed stream */
};

/* What an 'x' header says about the next one. */
struct pending {
	char *path, *link, *sparse_name;
	unsigned long long size;
	int has_size;
};

static errcode_t bad(struct stream *s, const char *why)
{
	com_err(mkfs_prog, 0, "%s: at byte %llu of the tar stream: %s "
		"(needed to keep the exact bytes of pax names)", s->path,
		s->offset, why);
	return EXT2_ET_INVALID_ARGUMENT;
}

/* Read n bytes; *ret_got says how many came before the end. */
static errcode_t read_bytes(struct stream *s, void *buf, size_t n,
			    size_t *ret_got)
{
	size_t got = 0;

	while (got < n) {
		la_ssize_t r = archive_read_data(s->a, (char *)buf + got,
						 n - got);

		if (r < 0)
			return bad(s, archive_error_string(s->a) ?
				   archive_error_string(s->a) : "read error");
		if (r == 0)
			break;
		got += r;
	}
	s->offset += got;
	*ret_got = got;
	return 0;
}

static errcode_t read_full(struct stream *s, void *buf, size_t n)
{
	size_t got;
	errcode_t retval = read_bytes(s, buf, n, &got);

	if (!retval && got != n)
		retval = bad(s, "the archive ends inside a member");
	return retval;
}

static errcode_t skip(struct stream *s, unsigned long long n)
{
	unsigned char buf[16 * TAR_BLOCK];

	while (n) {
		size_t k = n < sizeof(buf) ? n : sizeof(buf);
		errcode_t retval = read_full(s, buf, k);

		if (retval)
			return retval;
		n -= k;
	}
	return 0;
}

static unsigned long long padded(unsigned long long n)
{
	return (n + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK;
}

/* A numeric field: octal digits, or base-256 with bit 7 of byte 0 set. */
static unsigned long long number(const unsigned char *f, size_t len)
{
	unsigned long long v = 0;
	size_t i = 0;

	if (f[0] & 0x80) {
		v = f[0] & 0x3f;
		for (i = 1; i < len; i++)
			v = v << 8 | f[i];
		return v;
	}
	while (i < len && f[i] == ' ')
		i++;
	for (; i < len && f[i] >= '0' && f[i] <= '7'; i++)
		v = v << 3 | (f[i] - '0');
	return v;
}

/* A header block: its checksum (unsigned or, as old tars, signed sum). */
static int is_header(const unsigned char *b)
{
	unsigned long long want = number(b + 148, 8);
	long sum_s = 0;
	unsigned long sum_u = 0;
	int i;

	for (i = 0; i < TAR_BLOCK; i++) {
		unsigned char c = i >= 148 && i < 156 ? ' ' : b[i];

		sum_u += c;
		sum_s += (signed char)c;
	}
	return want == sum_u || want == (unsigned long long)sum_s;
}

static int is_zero(const unsigned char *b)
{
	int i;

	for (i = 0; i < TAR_BLOCK; i++)
		if (b[i])
			return 0;
	return 1;
}

static char *dup_value(const char *v, size_t len)
{
	char *p = malloc(len + 1);

	if (p) {
		memcpy(p, v, len);
		p[len] = '\0';
	}
	return p;
}

static void pending_clear(struct pending *pd)
{
	free(pd->path);
	free(pd->link);
	free(pd->sparse_name);
	memset(pd, 0, sizeof(*pd));
}

/* Replace *slot with the record's value. */
static errcode_t take(char **slot, const char *v, size_t len)
{
	free(*slot);
	*slot = dup_value(v, len);
	return *slot ? 0 : EXT2_ET_NO_MEMORY;
}

/* The records of an 'x' or 'g' header's data. */
static errcode_t parse_records(struct stream *s, const char *d, size_t n,
			       struct pending *pd)
{
	size_t off = 0;

	while (off < n && d[off]) {
		size_t len = 0, i = off, key, eq;
		errcode_t retval = 0;

		while (i < n && d[i] >= '0' && d[i] <= '9' && len < n)
			len = len * 10 + (d[i++] - '0');
		if (i >= n || d[i] != ' ' || !len || len > n - off ||
		    d[off + len - 1] != '\n')
			return bad(s, "a malformed pax record");
		key = i + 1;
		for (eq = key; eq < off + len - 1 && d[eq] != '='; eq++)
			;
		if (eq == off + len - 1)
			return bad(s, "a pax record without '='");
#define IS(k) (eq - key == sizeof(k) - 1 && !memcmp(d + key, k, eq - key))
		if (IS("path"))
			retval = take(&pd->path, d + eq + 1, off + len - 2 - eq);
		else if (IS("linkpath"))
			retval = take(&pd->link, d + eq + 1, off + len - 2 - eq);
		else if (IS("GNU.sparse.name"))
			retval = take(&pd->sparse_name, d + eq + 1,
				      off + len - 2 - eq);
		else if (IS("size")) {
			pd->size = strtoull(d + eq + 1, NULL, 10);
			pd->has_size = 1;
		}
#undef IS
		if (retval)
			return retval;
		off += len;
	}
	return 0;
}

static errcode_t read_records(struct stream *s, unsigned long long size,
			      struct pending *pd)
{
	char *d;
	errcode_t retval;

	if (size > MAX_RECORDS)
		return bad(s, "pax records too large");
	d = malloc(size + 1);
	if (!d)
		return EXT2_ET_NO_MEMORY;
	retval = read_full(s, d, size);
	if (!retval)
		retval = parse_records(s, d, size, pd);
	free(d);
	if (!retval)
		retval = skip(s, padded(size) - size);
	return retval;
}

static errcode_t add_name(struct mkfs_paxnames *out, size_t entry,
			  struct pending *pd)
{
	struct mkfs_paxname *p;
	errcode_t retval = e2fold_array_reserve(&out->names, &out->cap,
						out->n + 1, sizeof(*p));

	if (retval)
		return retval;
	p = &out->names[out->n++];
	p->entry = entry;
	/* libarchive names a sparse file by GNU.sparse.name, over path. */
	p->path = pd->sparse_name ? pd->sparse_name : pd->path;
	if (pd->sparse_name)
		free(pd->path);
	p->link = pd->link;
	memset(pd, 0, sizeof(*pd));
	return 0;
}

/* The extension headers of an old GNU sparse file. */
static errcode_t skip_sparse_extensions(struct stream *s,
					const unsigned char *header)
{
	unsigned char b[TAR_BLOCK];
	int more = header[482];
	errcode_t retval = 0;

	while (more && !retval) {
		retval = read_full(s, b, TAR_BLOCK);
		more = b[504];
	}
	return retval;
}

static errcode_t walk(struct stream *s, struct mkfs_paxnames *out)
{
	struct pending pd = { 0 }, global = { 0 };
	unsigned char b[TAR_BLOCK];
	size_t entry = 0, got;
	errcode_t retval = 0;

	while (!retval) {
		unsigned long long size;

		retval = read_bytes(s, b, TAR_BLOCK, &got);
		if (retval)
			break;
		if (got == 0 || is_zero(b))
			break;		/* the end (a missing end is libarchive's) */
		if (got != TAR_BLOCK || !is_header(b)) {
			/* Not tar at all (cpio, zip...): nothing to do. */
			if (s->offset == got)
				break;
			retval = bad(s, "not a tar header");
			break;
		}
		size = number(b + 124, 12);
		switch (b[156]) {
		case 'x':
		case 'X':
			retval = read_records(s, size, &pd);
			continue;
		case 'g':
			retval = read_records(s, size, &global);
			if (!retval && (global.path || global.link ||
					global.sparse_name))
				retval = bad(s, "a global pax header names a "
					     "path");
			pending_clear(&global);
			continue;
		case 'L':
		case 'K':
		case 'V':
			retval = skip(s, padded(size));
			continue;
		case 'M':
		case 'N':
			retval = bad(s, "a GNU multi-volume or old long-name "
				     "header");
			continue;
		case 'S':
			retval = skip_sparse_extensions(s, b);
			break;
		}
		if (!retval && pd.has_size)
			size = pd.size;
		if (!retval && (pd.path || pd.link || pd.sparse_name))
			retval = add_name(out, entry, &pd);
		pending_clear(&pd);
		entry++;
		if (!retval)
			retval = skip(s, padded(size));
	}
	pending_clear(&pd);
	pending_clear(&global);
	return retval;
}

errcode_t mkfs_pax_names_read(const char *path, struct mkfs_paxnames *out)
{
	struct stream s = { .path = path };
	struct archive_entry *e;
	errcode_t retval;

	memset(out, 0, sizeof(*out));
	s.a = archive_read_new();
	if (!s.a)
		return EXT2_ET_NO_MEMORY;
	/* The raw format: libarchive only decompresses. */
	archive_read_support_filter_all(s.a);
	archive_read_support_format_raw(s.a);
	if (archive_read_open_filename(s.a, path, 65536) != ARCHIVE_OK ||
	    archive_read_next_header(s.a, &e) != ARCHIVE_OK) {
		retval = bad(&s, archive_error_string(s.a) ?
			     archive_error_string(s.a) : "cannot read");
		archive_read_free(s.a);
		return retval;
	}
	retval = walk(&s, out);
	archive_read_free(s.a);
	if (retval)
		mkfs_pax_names_free(out);
	return retval;
}

const struct mkfs_paxname *mkfs_pax_names_of(const struct mkfs_paxnames *p,
					     size_t entry)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->names[mid].entry < entry)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->n && p->names[lo].entry == entry ? &p->names[lo] : NULL;
}

void mkfs_pax_names_free(struct mkfs_paxnames *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->names[i].path);
		free(p->names[i].link);
	}
	free(p->names);
	memset(p, 0, sizeof(*p));
}
