/* Bitset kernels in C: fogofwar.core._bitsets (fogofwar.core.bitsets holds the
 * pure-Python forms, which stay the reference and the fallback where this module is not
 * built; tests compare the two on random inputs of every width).
 *
 * `Stepper(directions, free)` is a hidden mover's step on a bitboard: the squares one
 * step from any square of a frontier (MoveGraph.stepper), with `walk` for the layers of
 * an unseen walk.
 *
 * `canon(rects)`: the canonical parts of a
 * union of rectangles (short squares, long squares, site assignments), each a Python
 * int used as a bitset. Every cell (a square after a short or a long move) gets the
 * union of the assignments of the rectangles that hold it; cells with the same union
 * form one part; parts come in order of their assignments. The result is unique, so
 * this module and the Python form must agree exactly.
 *
 * Why C: in Specter Ops at 5 players the possibility map's joins were about half of an
 * agent move's time and the steps of its walks most of the rest (rectangles of 736-bit
 * squares and 1,296-bit site assignments), and in Python each OR, AND, shift and dict
 * lookup on them makes a new object. Here the bitsets are arrays of 64-bit limbs, read
 * from the ints once and written back once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t limb;

#if PY_VERSION_HEX >= 0x030D0000
/* Bitsets are non-negative: a negative int is refused (ValueError). */
#define NATIVE_FLAGS \
    (Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER | \
     Py_ASNATIVEBYTES_REJECT_NEGATIVE)
#endif

/* ------------------------------------------------------------------ ints <-> limbs */

/* Ints are read and made digit by digit where CPython's layout of an int is known
 * (3.11 to 3.13: 15- or 30-bit digits, the count and sign in ob_size or lv_tag); that
 * is about three times faster than the byte-array calls, which serve elsewhere (and
 * where FOGOFWAR_BYTE_ARRAYS is defined: a build to check them against). */
#if !defined(FOGOFWAR_BYTE_ARRAYS) && !defined(PYPY_VERSION) && !defined(Py_LIMITED_API) && PY_VERSION_HEX >= 0x030B0000 && \
    PY_VERSION_HEX < 0x030E0000
#define DIGITS 1
#else
#define DIGITS 0
#endif

#if !DIGITS
static limb
swap_if_big(limb x)
{
#if PY_BIG_ENDIAN
    return __builtin_bswap64(x);
#else
    return x;
#endif
}
#endif

#if DIGITS
#if PY_VERSION_HEX >= 0x030C0000
#define LONG_DIGITS(v) (((PyLongObject *)(v))->long_value.ob_digit)
/* The digit count of a non-negative int; -1 for a negative one. */
static Py_ssize_t
long_size(PyObject *v)
{
    uintptr_t tag = ((PyLongObject *)v)->long_value.lv_tag;
    return (tag & 3) == 2 ? -1 : (Py_ssize_t)(tag >> 3);
}
#else
#define LONG_DIGITS(v) (((PyLongObject *)(v))->ob_digit)
static Py_ssize_t
long_size(PyObject *v)
{
    Py_ssize_t n = Py_SIZE(v);
    return n < 0 ? -1 : n;
}
#endif

static int
negative(void)
{
    PyErr_SetString(PyExc_OverflowError, "can't convert negative int to unsigned");
    return -1;
}
#endif

/* Read the non-negative int `v` into `n` little-endian limbs (it fits: n comes from
 * the widest int of the call). Negative ints raise OverflowError. */
static int
load(PyObject *v, limb *out, Py_ssize_t n)
{
#if DIGITS
    Py_ssize_t nd = long_size(v);
    if (nd < 0)
        return negative();
    const digit *d = LONG_DIGITS(v);
    memset(out, 0, (size_t)n * sizeof(limb));
    limb acc = 0;
    int bits = 0;
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < nd; i++) {
        limb dig = d[i];
        acc |= dig << bits;
        bits += PyLong_SHIFT;
        if (bits >= 64) {
            if (k < n)
                out[k] = acc;
            k++;
            bits -= 64;
            acc = bits ? dig >> (PyLong_SHIFT - bits) : 0;
        }
    }
    if (bits && k < n)
        out[k] = acc;
    return 0;
#else
#if PY_VERSION_HEX >= 0x030D0000
    if (PyLong_AsNativeBytes(v, out, n * (Py_ssize_t)sizeof(limb), NATIVE_FLAGS) < 0)
        return -1;
#else
    if (_PyLong_AsByteArray((PyLongObject *)v, (unsigned char *)out,
                            (size_t)n * sizeof(limb), 1, 0) < 0)
        return -1;
#endif
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = swap_if_big(out[i]);
    return 0;
#endif
}

static PyObject *
store(const limb *in, Py_ssize_t n)
{
#if DIGITS
    Py_ssize_t top = n - 1;
    while (top >= 0 && !in[top])
        top--;
    if (top < 0)
        return PyLong_FromLong(0);
    Py_ssize_t nbits = top * 64 + (64 - __builtin_clzll(in[top]));
    Py_ssize_t nd = (nbits + PyLong_SHIFT - 1) / PyLong_SHIFT;
    PyLongObject *out = _PyLong_New(nd);
    if (!out)
        return NULL;
    digit *d = LONG_DIGITS(out);
    for (Py_ssize_t i = 0; i < nd; i++) {
        Py_ssize_t p = i * PyLong_SHIFT, q = p >> 6;
        int r = (int)(p & 63);
        limb v = in[q] >> r;
        if (r + PyLong_SHIFT > 64 && q + 1 <= top)
            v |= in[q + 1] << (64 - r);
        d[i] = (digit)(v & PyLong_MASK);
    }
    return (PyObject *)out;
#else
    PyObject *out;
#if PY_BIG_ENDIAN
    limb *tmp = PyMem_Malloc((size_t)(n > 0 ? n : 1) * sizeof(limb));
    if (!tmp)
        return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++)
        tmp[i] = swap_if_big(in[i]);
    in = tmp;
#endif
#if PY_VERSION_HEX >= 0x030D0000
    out = PyLong_FromUnsignedNativeBytes(in, n * (Py_ssize_t)sizeof(limb),
                                         Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    out = _PyLong_FromByteArray((const unsigned char *)in, (size_t)n * sizeof(limb), 1, 0);
#endif
#if PY_BIG_ENDIAN
    PyMem_Free(tmp);
#endif
    return out;
#endif
}

/* Limbs needed for the non-negative int `v` (at least 0); -1 on error. */
static Py_ssize_t
limbs_of(PyObject *v)
{
    if (!PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "a bitset must be an int, not %.100s", Py_TYPE(v)->tp_name);
        return -1;
    }
#if DIGITS
    Py_ssize_t nd = long_size(v);
    if (nd < 0)
        return negative();
    if (nd == 0)
        return 0;
    Py_ssize_t bits = (nd - 1) * PyLong_SHIFT + (32 - __builtin_clz((unsigned)LONG_DIGITS(v)[nd - 1]));
    return (bits + 63) / 64;
#elif PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t bytes = PyLong_AsNativeBytes(v, NULL, 0, NATIVE_FLAGS);
    if (bytes < 0)
        return -1;
    return (bytes + (Py_ssize_t)sizeof(limb) - 1) / (Py_ssize_t)sizeof(limb);
#else
    size_t bits = _PyLong_NumBits(v);
    if (bits == (size_t)-1 && PyErr_Occurred())
        return -1;
    return (Py_ssize_t)((bits + 63) / 64);
#endif
}

/* Check that each item is a (short, long, assignments) tuple of ints: the widest squares
 * go to *S and, where A is not NULL, the widest assignments to *A (in limbs, kept at
 * least as they came in). `who` names the caller in the error. */
static int
rect_widths(PyObject **items, Py_ssize_t n, const char *who, Py_ssize_t *S, Py_ssize_t *A)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *r = items[i];
        if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 3) {
            PyErr_Format(PyExc_TypeError, "%s() takes (short, long, assignments) tuples, not %R",
                         who, r);
            return -1;
        }
        for (int k = 0; k < (A ? 3 : 2); k++) {
            Py_ssize_t w = limbs_of(PyTuple_GET_ITEM(r, k));
            if (w < 0)
                return -1;
            Py_ssize_t *most = k == 2 ? A : S;
            if (w > *most)
                *most = w;
        }
    }
    return 0;
}

static int
is_zero(const limb *x, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++)
        if (x[i])
            return 0;
    return 1;
}

/* A hash of n limbs for the kernels' own tables (where a part or a walk is found, never
 * the order of a result): each limb times its own odd multiplier, summed, then mixed.
 * The products do not wait on each other (a chain of multiply-and-shift per limb did:
 * the sets of 1,296 assignments are 21 limbs, hashed at every lookup). */
static uint64_t
hash_limbs(const limb *x, Py_ssize_t n)
{
    uint64_t h = (uint64_t)n, m = 0x9E3779B97F4A7C15ULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        h += x[i] * m;
        m += 0x632BE59BD9B4E01AULL; /* even: m stays odd */
    }
    h ^= h >> 32;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 29);
}

/* Bits set in one word, without a library call (builds for CPUs without POPCNT). */
static int
pop64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

static int
popcount(const limb *x, Py_ssize_t n)
{
    int c = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        c += pop64(x[i]);
    return c;
}

/* -1, 0, 1 as the ints x and y compare. */
static int
compare(const limb *x, const limb *y, Py_ssize_t n)
{
    for (Py_ssize_t i = n - 1; i >= 0; i--)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* ------------------------------------------------------------------ sets of parts */

/* Parts in one arena: part i is `stride` limbs at i * stride — its assignments (A
 * limbs), then its short squares (S), then its long squares (S). Indices, not
 * pointers, are kept, since the arena may move when it grows. A hash index finds a
 * part by its assignments; a part whose assignments change or that dies leaves its
 * old slot behind, which lookups pass over (they compare the part's current
 * assignments), so nothing is ever removed from the index. */
typedef struct {
    Py_ssize_t A, S, stride;
    limb *arena;
    char *alive;
    Py_ssize_t n, cap;
    Py_ssize_t *slots; /* part index + 1; 0 for an empty slot */
    Py_ssize_t nslots, used;
} Parts;

static int
parts_init(Parts *p, Py_ssize_t A, Py_ssize_t S, Py_ssize_t cap)
{
    p->A = A;
    p->S = S;
    p->stride = A + 2 * S;
    p->n = 0;
    /* Parts are zeroed as they are added (parts_add): the arena needs no clearing. */
    p->cap = cap > 4 ? cap : 4;
    p->arena = PyMem_Malloc((size_t)(p->cap * p->stride) * sizeof(limb));
    p->alive = PyMem_Malloc((size_t)p->cap);
    p->nslots = 16;
    while (p->nslots < 2 * p->cap)
        p->nslots *= 2;
    p->slots = PyMem_Calloc((size_t)p->nslots, sizeof(Py_ssize_t));
    p->used = 0;
    if (!p->arena || !p->alive || !p->slots) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void
parts_free(Parts *p)
{
    PyMem_Free(p->arena);
    PyMem_Free(p->alive);
    PyMem_Free(p->slots);
    p->arena = NULL;
    p->alive = NULL;
    p->slots = NULL;
}

#define PART_A(p, i) ((p)->arena + (i) * (p)->stride)
#define PART_S(p, i) (PART_A(p, i) + (p)->A)
#define PART_L(p, i) (PART_S(p, i) + (p)->S)

static Py_ssize_t
parts_find(const Parts *p, const limb *a)
{
    size_t mask = (size_t)p->nslots - 1;
    size_t j = (size_t)hash_limbs(a, p->A) & mask;
    for (;;) {
        Py_ssize_t k = p->slots[j];
        if (!k)
            return -1;
        k -= 1;
        if (p->alive[k] && memcmp(PART_A(p, k), a, (size_t)p->A * sizeof(limb)) == 0)
            return k;
        j = (j + 1) & mask;
    }
}

static void
slot_put(Parts *p, Py_ssize_t i)
{
    size_t mask = (size_t)p->nslots - 1;
    size_t j = (size_t)hash_limbs(PART_A(p, i), p->A) & mask;
    while (p->slots[j])
        j = (j + 1) & mask;
    p->slots[j] = i + 1;
    p->used++;
}

/* Index part i under its current assignments (keeping the index at most half full:
 * it is rebuilt from the live parts when it would pass that). */
static int
parts_index(Parts *p, Py_ssize_t i)
{
    if (2 * (p->used + 1) > p->nslots) {
        Py_ssize_t live = 0;
        for (Py_ssize_t k = 0; k < p->n; k++)
            live += p->alive[k];
        Py_ssize_t size = 16;
        while (size < 4 * (live + 1))
            size *= 2;
        Py_ssize_t *slots = PyMem_Calloc((size_t)size, sizeof(Py_ssize_t));
        if (!slots) {
            PyErr_NoMemory();
            return -1;
        }
        PyMem_Free(p->slots);
        p->slots = slots;
        p->nslots = size;
        p->used = 0;
        for (Py_ssize_t k = 0; k < p->n; k++)
            if (p->alive[k] && k != i)
                slot_put(p, k);
    }
    slot_put(p, i);
    return 0;
}

/* Double an arena of `stride` limbs an entry and its flags, as one grows both. */
static int
grow(limb **arena, char **flags, Py_ssize_t *cap, Py_ssize_t stride)
{
    Py_ssize_t more = *cap * 2;
    limb *a = PyMem_Realloc(*arena, (size_t)(more * stride) * sizeof(limb));
    if (!a) {
        PyErr_NoMemory();
        return -1;
    }
    *arena = a;
    char *f = PyMem_Realloc(*flags, (size_t)more);
    if (!f) {
        PyErr_NoMemory();
        return -1;
    }
    *flags = f;
    *cap = more;
    return 0;
}

/* A new live part with assignments `a` and no squares; its index, or -1. */
static Py_ssize_t
parts_add(Parts *p, const limb *a)
{
    if (p->n == p->cap && grow(&p->arena, &p->alive, &p->cap, p->stride) < 0)
        return -1;
    Py_ssize_t i = p->n++;
    memset(PART_A(p, i), 0, (size_t)p->stride * sizeof(limb));
    memcpy(PART_A(p, i), a, (size_t)p->A * sizeof(limb));
    p->alive[i] = 1;
    if (parts_index(p, i) < 0)
        return -1;
    return i;
}

/* ------------------------------------------------------------------ canon */

typedef struct {
    Py_ssize_t key; /* the part's index, for a stable order */
    int width;      /* the popcount of its assignments */
} Order;

static int
wide_first(const void *x, const void *y)
{
    const Order *a = x, *b = y;
    if (a->width != b->width)
        return a->width > b->width ? -1 : 1;
    return a->key < b->key ? -1 : (a->key > b->key);
}

static const Parts *sorting; /* the parts `by_assignments` compares (one call at a time: the GIL) */

static int
by_assignments(const void *x, const void *y)
{
    Py_ssize_t i = *(const Py_ssize_t *)x, j = *(const Py_ssize_t *)y;
    return compare(PART_A(sorting, i), PART_A(sorting, j), sorting->A);
}

/* Which limbs of (short, long) hold squares, folded into one word: two sets of squares
 * whose words share no bit cannot meet (a cheap test before reading their limbs). */
static uint64_t
occupied(const limb *sq, const limb *lq, Py_ssize_t S)
{
    uint64_t o = 0;
    for (Py_ssize_t k = 0; k < S; k++)
        if (sq[k] | lq[k])
            o |= (uint64_t)1 << (k & 63);
    return o;
}

/* Keep `*occ` (one word per part of `cells`) as long as the arena. */
static int
occ_fit(uint64_t **occ, Py_ssize_t *have, const Parts *cells)
{
    if (*have >= cells->cap)
        return 0;
    uint64_t *more = PyMem_Realloc(*occ, (size_t)cells->cap * sizeof(uint64_t));
    if (!more) {
        PyErr_NoMemory();
        return -1;
    }
    *occ = more;
    *have = cells->cap;
    return 0;
}

/* OR (sq, lq) into part t's squares at the `ni` limbs `at` (the only limbs they hold).
 * The part is found by index: parts_add may have moved the arena. */
static void
or_at(Parts *cells, Py_ssize_t t, const limb *sq, const limb *lq, const Py_ssize_t *at,
      Py_ssize_t ni)
{
    limb *ts = PART_S(cells, t), *tl = PART_L(cells, t);
    for (Py_ssize_t j = 0; j < ni; j++) {
        ts[at[j]] |= sq[at[j]];
        tl[at[j]] |= lq[at[j]];
    }
}

/* Refine `by_a` (parts with distinct assignments, possibly overlapping squares) into
 * `cells` (disjoint squares): the algorithm of bitsets.canon_py — wide sets first,
 * each rectangle splitting only the parts its squares meet. Each cell keeps which of
 * its limbs hold squares (`occ`), so that the many cells a rectangle does not meet (a
 * map's parts are regions of the board) are passed over without reading them. */
static int
refine(const Parts *by_a, Parts *cells, limb *tmp)
{
    Py_ssize_t A = by_a->A, S = by_a->S;
    limb *s2 = tmp, *l2 = tmp + S, *s_in = tmp + 2 * S, *l_in = tmp + 3 * S, *u = tmp + 4 * S;
    Order *order = PyMem_Malloc((size_t)by_a->n * sizeof(Order));
    Py_ssize_t *at = PyMem_Malloc((size_t)(S > 64 ? S : 64) * sizeof(Py_ssize_t));
    uint64_t *occ = NULL;
    Py_ssize_t have = 0;
    if (!order || !at) {
        PyMem_Free(order);
        PyMem_Free(at);
        PyErr_NoMemory();
        return -1;
    }
    if (occ_fit(&occ, &have, cells) < 0)
        goto fail;
    for (Py_ssize_t g = 0; g < cells->n; g++)
        occ[g] = occupied(PART_S(cells, g), PART_L(cells, g), S);
    for (Py_ssize_t i = 0; i < by_a->n; i++) {
        order[i].key = i;
        order[i].width = popcount(PART_A(by_a, i), A);
    }
    if (by_a->n <= 48) {
        /* A join's few rectangles: sorted in place (qsort's calls per comparison were
         * a tenth of this function). The same order: wide_first is a total order. */
        for (Py_ssize_t i = 1; i < by_a->n; i++) {
            Order x = order[i];
            Py_ssize_t j = i;
            for (; j > 0 && wide_first(&x, &order[j - 1]) < 0; j--)
                order[j] = order[j - 1];
            order[j] = x;
        }
    }
    else {
        qsort(order, (size_t)by_a->n, sizeof(Order), wide_first);
    }
    for (Py_ssize_t r = 0; r < by_a->n; r++) {
        Py_ssize_t src = order[r].key;
        const limb *a2 = PART_A(by_a, src);
        memcpy(s2, PART_S(by_a, src), (size_t)S * sizeof(limb));
        memcpy(l2, PART_L(by_a, src), (size_t)S * sizeof(limb));
        uint64_t o2 = occupied(s2, l2, S);
        /* Parts made or grown below hold only this rectangle's cells, already placed:
         * the parts before it are the ones to visit. */
        Py_ssize_t snapshot = cells->n;
        int left = o2 != 0;
        for (Py_ssize_t g = 0; g < snapshot && left; g++) {
            if (!cells->alive[g] || !(occ[g] & o2))
                continue;
            limb *cs = PART_S(cells, g), *cl = PART_L(cells, g);
            /* The cell's limbs that hold squares (all of them past 64 limbs, where a
             * bit of `occ` stands for several): the meeting lies in those, and only
             * those change below. */
            Py_ssize_t ni = 0;
            if (S <= 64) {
                for (uint64_t o = occ[g]; o; o &= o - 1)
                    at[ni++] = __builtin_ctzll(o);
            }
            else {
                for (Py_ssize_t k = 0; k < S; k++)
                    at[ni++] = k;
            }
            int meets = 0, whole = 1;
            for (Py_ssize_t j = 0; j < ni; j++) {
                Py_ssize_t k = at[j];
                s_in[k] = cs[k] & s2[k];
                l_in[k] = cl[k] & l2[k];
                meets |= (s_in[k] | l_in[k]) != 0;
                whole &= s_in[k] == cs[k] && l_in[k] == cl[k];
            }
            if (!meets)
                continue;
            for (Py_ssize_t j = 0; j < ni; j++) {
                Py_ssize_t k = at[j];
                s2[k] ^= s_in[k];
                l2[k] ^= l_in[k];
                if (S <= 64 && !(s2[k] | l2[k]))
                    o2 &= ~((uint64_t)1 << k);
            }
            if (S > 64)
                o2 = occupied(s2, l2, S);
            int rest = o2 != 0;
            const limb *a1 = PART_A(cells, g);
            int wider = 0;
            for (Py_ssize_t k = 0; k < A; k++) {
                u[k] = a1[k] | a2[k];
                wider |= u[k] != a1[k];
            }
            if (wider) {
                Py_ssize_t t = parts_find(cells, u);
                uint64_t o_in = 0;
                for (Py_ssize_t j = 0; j < ni; j++) {
                    Py_ssize_t k = at[j];
                    if (s_in[k] | l_in[k])
                        o_in |= (uint64_t)1 << (k & 63);
                }
                if (whole) {
                    if (t < 0) {
                        /* The whole part moves to the wider set: re-key it. */
                        memcpy(PART_A(cells, g), u, (size_t)A * sizeof(limb));
                        if (parts_index(cells, g) < 0)
                            goto fail;
                    }
                    else {
                        or_at(cells, t, s_in, l_in, at, ni);
                        occ[t] |= o_in;
                        cells->alive[g] = 0;
                    }
                }
                else {
                    uint64_t og = 0;
                    for (Py_ssize_t j = 0; j < ni; j++) {
                        Py_ssize_t k = at[j];
                        cs[k] ^= s_in[k];
                        cl[k] ^= l_in[k];
                        if (cs[k] | cl[k])
                            og |= (uint64_t)1 << (k & 63);
                    }
                    occ[g] = og;
                    if (t < 0) {
                        if ((t = parts_add(cells, u)) < 0 || occ_fit(&occ, &have, cells) < 0)
                            goto fail;
                        occ[t] = 0;
                    }
                    or_at(cells, t, s_in, l_in, at, ni); /* after parts_add: by index */
                    occ[t] |= o_in;
                }
            }
            left = rest;
        }
        if (left) {
            Py_ssize_t t = parts_find(cells, a2);
            if (t < 0) {
                if ((t = parts_add(cells, a2)) < 0 || occ_fit(&occ, &have, cells) < 0)
                    goto fail;
                occ[t] = 0;
            }
            for (Py_ssize_t k = 0; k < S; k++) {
                PART_S(cells, t)[k] |= s2[k];
                PART_L(cells, t)[k] |= l2[k];
            }
            occ[t] |= o2;
        }
    }
    PyMem_Free(order);
    PyMem_Free(at);
    PyMem_Free(occ);
    return 0;
fail:
    PyMem_Free(order);
    PyMem_Free(at);
    PyMem_Free(occ);
    return -1;
}

/* The live parts of `p` as a tuple of (short, long, assignments), in order of their
 * assignments. A part whose assignments are those of a part of `src` (indexed) that
 * `objs` gives an int for takes that int, not a new one: a move or a join keeps most
 * parts' assignments, and a new 1,296-bit int for each was a third of what emitting
 * made (and of what the next fact's kernels read back). */
static PyObject *
emit_from(const Parts *p, const Parts *src, PyObject *const *objs)
{
    Py_ssize_t n = 0;
    Py_ssize_t *idx = PyMem_Malloc((size_t)(p->n ? p->n : 1) * sizeof(Py_ssize_t));
    if (!idx)
        return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < p->n; i++)
        if (p->alive[i] && !(is_zero(PART_S(p, i), p->S) && is_zero(PART_L(p, i), p->S)))
            idx[n++] = i;
    sorting = p;
    qsort(idx, (size_t)n, sizeof(Py_ssize_t), by_assignments);
    PyObject *out = PyTuple_New(n);
    if (!out)
        goto done;
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t i = idx[k];
        PyObject *s = store(PART_S(p, i), p->S);
        PyObject *l = s ? store(PART_L(p, i), p->S) : NULL;
        PyObject *a = NULL;
        if (l) {
            Py_ssize_t j = objs ? parts_find(src, PART_A(p, i)) : -1;
            a = j >= 0 && objs[j] ? Py_NewRef(objs[j]) : store(PART_A(p, i), p->A);
        }
        PyObject *part = a ? PyTuple_New(3) : NULL;
        if (!part) {
            Py_XDECREF(s);
            Py_XDECREF(l);
            Py_XDECREF(a);
            Py_CLEAR(out);
            goto done;
        }
        PyTuple_SET_ITEM(part, 0, s);
        PyTuple_SET_ITEM(part, 1, l);
        PyTuple_SET_ITEM(part, 2, a);
        PyTuple_SET_ITEM(out, k, part);
    }
done:
    PyMem_Free(idx);
    return out;
}

static PyObject *
emit(const Parts *p)
{
    return emit_from(p, NULL, NULL);
}

/* The canonical parts of `by_a` (distinct assignments, squares that may overlap) as a
 * tuple: refined through `cells` where there is more than one; assignments found in
 * `src` take the ints `objs` gives (emit_from). */
static PyObject *
emit_refined(const Parts *by_a, Parts *cells, limb *tmp, const Parts *src,
             PyObject *const *objs)
{
    if (by_a->n <= 1)
        return emit_from(by_a, src, objs);
    if (refine(by_a, cells, tmp) < 0)
        return NULL;
    return emit_from(cells, src, objs);
}

/* A small map from an int object (by identity) to the part of its assignments: the
 * rectangles of one join mostly share their assignments' objects. */
typedef struct {
    PyObject **keys;
    Py_ssize_t *vals;
    size_t mask;
} Seen;

static PyObject *
canon(PyObject *self, PyObject *arg)
{
    (void)self;
    PyObject *seq = PySequence_Fast(arg, "canon() takes an iterable of (short, long, assignments)");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *out = NULL;
    Parts by_a = {0}, cells = {0};
    Seen seen = {0};
    limb *tmp = NULL;
    PyObject **objs = NULL; /* per part of by_a: the first exact int of its assignments */
    /* Widths first, checking every rectangle. */
    Py_ssize_t A = 1, S = 1;
    if (rect_widths(items, n, "canon", &S, &A) < 0)
        goto done;
    if (parts_init(&by_a, A, S, n < 32 ? n : 32) < 0 || parts_init(&cells, A, S, 32) < 0)
        goto done;
    size_t nseen = 16;
    while (nseen < 2 * (size_t)n)
        nseen *= 2;
    seen.keys = PyMem_Calloc(nseen, sizeof(PyObject *));
    seen.vals = PyMem_Calloc(nseen, sizeof(Py_ssize_t));
    seen.mask = nseen - 1;
    tmp = PyMem_Calloc((size_t)(4 * S + 2 * A), sizeof(limb));
    objs = PyMem_Calloc((size_t)(n ? n : 1), sizeof(PyObject *));
    if (!seen.keys || !seen.vals || !tmp || !objs) {
        PyErr_NoMemory();
        goto done;
    }
    limb *sq = tmp, *lq = tmp + S, *a = tmp + 2 * S;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *short_ = PyTuple_GET_ITEM(items[i], 0);
        PyObject *long_ = PyTuple_GET_ITEM(items[i], 1);
        PyObject *ao = PyTuple_GET_ITEM(items[i], 2);
        if (load(short_, sq, S) < 0 || load(long_, lq, S) < 0)
            goto done;
        if (is_zero(sq, S) && is_zero(lq, S))
            continue;
        /* The assignments' part: by object, else by value. */
        size_t j = ((uintptr_t)ao >> 4) & seen.mask;
        while (seen.keys[j] && seen.keys[j] != ao)
            j = (j + 1) & seen.mask;
        Py_ssize_t part;
        if (seen.keys[j]) {
            part = seen.vals[j];
        }
        else {
            if (load(ao, a, A) < 0)
                goto done;
            if (is_zero(a, A))
                part = -2; /* no assignment: no worlds */
            else if ((part = parts_find(&by_a, a)) < 0 && (part = parts_add(&by_a, a)) < 0)
                goto done;
            if (part >= 0 && !objs[part] && PyLong_CheckExact(ao))
                objs[part] = ao; /* alive in seq */
            seen.keys[j] = ao;
            seen.vals[j] = part;
        }
        if (part == -2)
            continue;
        limb *ps = PART_S(&by_a, part), *pl = PART_L(&by_a, part);
        for (Py_ssize_t k = 0; k < S; k++) {
            ps[k] |= sq[k];
            pl[k] |= lq[k];
        }
    }
    out = emit_refined(&by_a, &cells, tmp, &by_a, objs);
done:
    Py_DECREF(seq);
    PyMem_Free(objs);
    parts_free(&by_a);
    parts_free(&cells);
    PyMem_Free(seen.keys);
    PyMem_Free(seen.vals);
    PyMem_Free(tmp);
    return out;
}

/* ------------------------------------------------------------------ narrow, union */

/* A mask given as an int: non-negative, or negative (~m: every square but m's). */
typedef struct {
    limb *bits;
    Py_ssize_t n;
    int inverted;
} Mask;

static int
mask_load(PyObject *v, Mask *m, Py_ssize_t width)
{
    PyObject *pos = NULL;
    m->bits = NULL;
    m->inverted = 0;
    if (!PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "a mask must be an int, not %.100s", Py_TYPE(v)->tp_name);
        return -1;
    }
#if DIGITS
    int sign = long_size(v) < 0;
#else
    PyObject *zero = PyLong_FromLong(0);
    if (!zero)
        return -1;
    int sign = PyObject_RichCompareBool(v, zero, Py_LT);
    Py_DECREF(zero);
    if (sign < 0)
        return -1;
#endif
    if (sign) {
        pos = PyNumber_Invert(v);
        if (!pos)
            return -1;
        m->inverted = 1;
        v = pos;
    }
    Py_ssize_t w = limbs_of(v);
    if (w < 0)
        goto fail;
    m->n = w > width ? w : width;
    m->bits = PyMem_Calloc((size_t)(m->n ? m->n : 1), sizeof(limb));
    if (!m->bits) {
        PyErr_NoMemory();
        goto fail;
    }
    if (load(v, m->bits, m->n) < 0)
        goto fail;
    if (m->inverted)
        for (Py_ssize_t k = 0; k < m->n; k++)
            m->bits[k] = ~m->bits[k];
    Py_XDECREF(pos);
    return 0;
fail:
    Py_XDECREF(pos);
    PyMem_Free(m->bits);
    m->bits = NULL;
    return -1;
}

/* A tuple of our own from `v` (ints of a negative mask may run code that changes a
 * list under us), with a TypeError that says what `who` takes. */
static PyObject *
own_tuple(PyObject *v, const char *message)
{
    PyObject *seq = PySequence_Tuple(v);
    if (!seq && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, message);
    }
    return seq;
}

/* Make a loaded mask at least `width` limbs long (a negative mask's new limbs are all
 * ones, a non-negative one's zeros). */
static int
mask_widen(Mask *m, Py_ssize_t width)
{
    if (m->n >= width)
        return 0;
    limb *bits = PyMem_Realloc(m->bits, (size_t)width * sizeof(limb));
    if (!bits) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = m->n; k < width; k++)
        bits[k] = m->inverted ? ~(limb)0 : 0;
    m->bits = bits;
    m->n = width;
    return 0;
}

/* narrow's work: the rects of `seq` (checked, at most W limbs wide) narrowed by the
 * loaded masks (at least W limbs); `parts`, the caller's sequence, is what comes back
 * when nothing narrowed and it is a tuple. `buf`: 4 W limbs of scratch. */
static PyObject *
narrow_loaded(PyObject *parts, PyObject *seq, const Mask *ms, const Mask *ml, Py_ssize_t W,
              limb *buf)
{
    Py_ssize_t n = PyTuple_GET_SIZE(seq), made = 0;
    PyObject **items = &PyTuple_GET_ITEM(seq, 0);
    PyObject *out = PyTuple_New(n), *result = NULL;
    if (!out)
        return NULL;
    limb *sq = buf, *lq = buf + W, *sn = buf + 2 * W, *ln = buf + 3 * W;
    int same = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *r = items[i];
        if (load(PyTuple_GET_ITEM(r, 0), sq, W) < 0 || load(PyTuple_GET_ITEM(r, 1), lq, W) < 0)
            goto done;
        int any = 0, kept_s = 1, kept_l = 1;
        for (Py_ssize_t k = 0; k < W; k++) {
            sn[k] = sq[k] & ms->bits[k];
            ln[k] = lq[k] & ml->bits[k];
            any |= (sn[k] | ln[k]) != 0;
            kept_s &= sn[k] == sq[k];
            kept_l &= ln[k] == lq[k];
        }
        PyObject *rect;
        if (kept_s && kept_l) {
            /* Unchanged: the same rectangle (no new ints). */
            rect = r;
            Py_INCREF(rect);
        }
        else if (!any) {
            same = 0; /* narrowed to nothing: left out */
            continue;
        }
        else {
            same = 0;
            PyObject *a = kept_s ? Py_NewRef(PyTuple_GET_ITEM(r, 0)) : store(sn, W);
            PyObject *b = a ? (kept_l ? Py_NewRef(PyTuple_GET_ITEM(r, 1)) : store(ln, W)) : NULL;
            rect = b ? PyTuple_New(3) : NULL;
            if (!rect) {
                Py_XDECREF(a);
                Py_XDECREF(b);
                goto done;
            }
            PyTuple_SET_ITEM(rect, 0, a);
            PyTuple_SET_ITEM(rect, 1, b);
            PyTuple_SET_ITEM(rect, 2, Py_NewRef(PyTuple_GET_ITEM(r, 2)));
        }
        PyTuple_SET_ITEM(out, made++, rect);
    }
    if (same && PyTuple_CheckExact(parts)) {
        /* Nothing narrowed: the parts themselves (their identity is a cache key). */
        result = Py_NewRef(parts);
    }
    else if (made == n) {
        result = out;
        out = NULL;
    }
    else {
        result = PyTuple_GetSlice(out, 0, made);
    }
done:
    Py_XDECREF(out);
    return result;
}

static PyObject *
narrow(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *parts, *so, *lo;
    if (!PyArg_ParseTuple(args, "OOO:narrow", &parts, &so, &lo))
        return NULL;
    /* A tuple of our own: loading a negative mask may run an int subclass's code,
     * which could change a list of parts under us. */
    PyObject *seq = own_tuple(parts, "narrow() takes a sequence of (short, long, assignments)");
    if (!seq)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(seq), W = 1;
    PyObject **items = &PyTuple_GET_ITEM(seq, 0);
    PyObject *result = NULL;
    Mask ms = {0}, ml = {0};
    limb *buf = NULL;
    if (rect_widths(items, n, "narrow", &W, NULL) < 0)
        goto done;
    if (mask_load(so, &ms, W) < 0 || mask_load(lo, &ml, W) < 0)
        goto done;
    buf = PyMem_Malloc((size_t)(4 * W) * sizeof(limb));
    if (!buf) {
        PyErr_NoMemory();
        goto done;
    }
    result = narrow_loaded(parts, seq, &ms, &ml, W, buf);
done:
    Py_DECREF(seq);
    PyMem_Free(ms.bits);
    PyMem_Free(ml.bits);
    PyMem_Free(buf);
    return result;
}

static PyObject *
squares_of(PyObject *self, PyObject *parts)
{
    (void)self;
    PyObject *seq = PySequence_Fast(parts, "squares() takes a sequence of (short, long, assignments)");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq), W = 1;
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *result = NULL;
    limb *buf = NULL;
    if (rect_widths(items, n, "squares", &W, NULL) < 0)
        goto done;
    buf = PyMem_Calloc((size_t)(2 * W), sizeof(limb));
    if (!buf) {
        PyErr_NoMemory();
        goto done;
    }
    limb *acc = buf, *t = buf + W;
    for (Py_ssize_t i = 0; i < n; i++) {
        for (int k = 0; k < 2; k++) {
            if (load(PyTuple_GET_ITEM(items[i], k), t, W) < 0)
                goto done;
            for (Py_ssize_t j = 0; j < W; j++)
                acc[j] |= t[j];
        }
    }
    result = store(acc, W);
done:
    Py_DECREF(seq);
    PyMem_Free(buf);
    return result;
}

/* ------------------------------------------------------------------ parts' hashes */

/* Dicts are read and written with hashes worked out here where CPython lets a caller
 * give them (3.11 and 3.12): a move's key join takes the hashes its sets keep, and a
 * group join the hashes of its parts, worked out once (below). */
#if !defined(PYPY_VERSION) && !defined(Py_LIMITED_API) && PY_VERSION_HEX < 0x030D0000
#define KNOWN_HASH 1
#else
#define KNOWN_HASH 0
#endif

/* A map's groups are keyed by their parts: a tuple of (short, long, assignments)
 * tuples of 700- to 1,300-bit ints, whose hashes CPython does not keep. Hashing them
 * anew for every dict a group enters was a tenth of a 5-player game's time. So a
 * group join hashes its parts once, and
 *
 * - a parts object that is a key of the map's old groups takes the hash stored with it
 *   there (`Known`: most groups of a fact that narrows the map keep their parts
 *   objects);
 * - another is hashed by CPython's own formulas, on the ints' digits two at a time: an
 *   int n >= 0 hashes to n mod 2^61 - 1 (Objects/longobject.c), a tuple to xxHash's
 *   round over its items' hashes (Objects/tupleobject.c). `fast_hash` is set when the
 *   module loads only if the formulas give hash()'s answers on sample values; else
 *   (or for anything but exact tuples and non-negative ints) PyObject_Hash serves. */
#define HASH_MOD (((uint64_t)1 << 61) - 1)
#define XXPRIME_1 ((uint64_t)11400714785074694791ULL)
#define XXPRIME_2 ((uint64_t)14029467366897019727ULL)
#define XXPRIME_5 ((uint64_t)2870177450012600261ULL)

#if KNOWN_HASH && DIGITS && PyLong_SHIFT == 30
#define FAST_HASH 1
#else
#define FAST_HASH 0
#endif

#if FAST_HASH
static int fast_hash = 0;

/* n mod 2^61 - 1 for the non-negative int `v` of `n` 30-bit digits: x * 2^60 is x
 * rotated right by one bit within 61 bits, so two digits join at a step. */
static Py_hash_t
long_hash_digits(PyObject *v, Py_ssize_t n)
{
    const digit *d = LONG_DIGITS(v);
    uint64_t x = 0;
    Py_ssize_t i = n - 1;
    if (n & 1)
        x = d[i--];
    for (; i > 0; i -= 2) {
        x = ((x & 1) << 60 | x >> 1) + ((uint64_t)d[i] << 30 | d[i - 1]);
        if (x >= HASH_MOD)
            x -= HASH_MOD;
    }
    return (Py_hash_t)x;
}

static Py_hash_t
hash_fast(PyObject *v)
{
    if (PyLong_CheckExact(v)) {
        Py_ssize_t n = long_size(v);
        if (n >= 0)
            return long_hash_digits(v, n);
    }
    else if (PyTuple_CheckExact(v)) {
        Py_ssize_t len = PyTuple_GET_SIZE(v);
        uint64_t acc = XXPRIME_5;
        for (Py_ssize_t i = 0; i < len; i++) {
            Py_hash_t lane = hash_fast(PyTuple_GET_ITEM(v, i));
            if (lane == -1)
                return -1;
            acc += (uint64_t)lane * XXPRIME_2;
            acc = (acc << 31) | (acc >> 33);
            acc *= XXPRIME_1;
        }
        acc += (uint64_t)len ^ (XXPRIME_5 ^ 3527539UL);
        return acc == (uint64_t)-1 ? 1546275796 : (Py_hash_t)acc;
    }
    return PyObject_Hash(v);
}
#endif

/* hash(v): by the formulas above where they were checked, else CPython's. */
static Py_hash_t
hash_of(PyObject *v)
{
#if FAST_HASH
    if (fast_hash)
        return hash_fast(v);
#endif
    return PyObject_Hash(v);
}

/* Whether the formulas give hash()'s answers (at the module's load): on a tuple of
 * ints of one digit, of an even and an odd count of digits, 2^61 - 1 (whose hash is
 * 0) and 2^64 - 1, and of the empty tuple. */
static int
check_fast_hash(void)
{
#if FAST_HASH
    PyObject *three = PyLong_FromLong(3), *shift = PyLong_FromLong(1294);
    PyObject *big = three && shift ? PyNumber_Lshift(three, shift) : NULL;
    Py_XDECREF(three);
    Py_XDECREF(shift);
    if (!big)
        return -1;
    PyObject *sample = Py_BuildValue("(i(NNN)())", 7, PyLong_FromUnsignedLongLong(HASH_MOD),
                                     PyLong_FromUnsignedLongLong((uint64_t)-1), big);
    if (!sample)
        return -1;
    Py_hash_t want = PyObject_Hash(sample);
    if (want == -1) {
        Py_DECREF(sample);
        return -1;
    }
    fast_hash = hash_fast(sample) == want;
    Py_DECREF(sample);
#endif
    return 0;
}

/* The hashes an old groups dict keeps, by its keys' identity: an open-addressed table
 * of (key, hash), empty where `known` is not an exact dict or hashes are not given. It
 * holds its keys, so that no other object can take one's address meanwhile. */
typedef struct {
    PyObject **keys;
    Py_hash_t *hashes;
    size_t mask;
} Known;

#if KNOWN_HASH
static size_t
known_slot(const Known *k, PyObject *key)
{
    return (size_t)((((uint64_t)(uintptr_t)key >> 4) * XXPRIME_1) >> 32) & k->mask;
}
#endif

static int
known_init(Known *k, PyObject *dict)
{
    k->keys = NULL;
    k->hashes = NULL;
    k->mask = 0;
#if KNOWN_HASH
    if (!dict || !PyDict_CheckExact(dict) || !PyDict_GET_SIZE(dict))
        return 0;
    size_t cap = 8;
    while (cap < 2 * (size_t)PyDict_GET_SIZE(dict))
        cap <<= 1;
    k->keys = PyMem_Calloc(cap, sizeof(PyObject *));
    k->hashes = PyMem_Calloc(cap, sizeof(Py_hash_t));
    if (!k->keys || !k->hashes) {
        PyMem_Free(k->keys);
        PyMem_Free(k->hashes);
        k->keys = NULL;
        k->hashes = NULL;
        PyErr_NoMemory();
        return -1;
    }
    k->mask = cap - 1;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    Py_hash_t hash;
    while (_PyDict_Next(dict, &pos, &key, &value, &hash)) {
        size_t i = known_slot(k, key);
        while (k->keys[i])
            i = (i + 1) & k->mask;
        k->keys[i] = Py_NewRef(key);
        k->hashes[i] = hash;
    }
#else
    (void)dict;
#endif
    return 0;
}

static void
known_free(Known *k)
{
    if (k->keys)
        for (size_t i = 0; i <= k->mask; i++)
            Py_XDECREF(k->keys[i]);
    PyMem_Free(k->keys);
    PyMem_Free(k->hashes);
}

/* No old groups: every parts hashed here. */
static const Known no_known = {NULL, NULL, 0};

/* hash(parts): the one `k` keeps for this very object, or worked out (hash_of). Without
 * KNOWN_HASH the dict calls hash for themselves, and this is 0 (unused). */
static Py_hash_t
parts_hash(const Known *k, PyObject *parts)
{
#if KNOWN_HASH
    if (k->keys) {
        size_t i = known_slot(k, parts);
        while (k->keys[i]) {
            if (k->keys[i] == parts)
                return k->hashes[i];
            i = (i + 1) & k->mask;
        }
    }
    return hash_of(parts);
#else
    (void)k;
    (void)parts;
    return 0;
#endif
}

/* out[parts] = keys, or its union with the keys there (`cur | keys`: groups whose parts
 * came out equal join), `hash` being hash(parts) (parts_hash; without KNOWN_HASH unused,
 * the dict calls hashing for themselves): _regroup's join. */
static int
group_join(PyObject *out, PyObject *parts, PyObject *keys, Py_hash_t hash)
{
#if KNOWN_HASH
    if (hash == -1)
        return -1;
    PyObject *cur = _PyDict_GetItem_KnownHash(out, parts, hash);
    if (!cur && PyErr_Occurred())
        return -1;
    if (cur == keys)
        return 0;
    PyObject *u = cur ? PyNumber_Or(cur, keys) : Py_NewRef(keys);
    int bad = !u || _PyDict_SetItem_KnownHash(out, parts, u, hash) < 0;
#else
    /* One hash where the parts are new, as Python's setdefault. */
    (void)hash;
    PyObject *cur = PyDict_SetDefault(out, parts, keys);
    if (!cur)
        return -1;
    if (cur == keys)
        return 0;
    PyObject *u = PyNumber_Or(cur, keys);
    int bad = !u || PyDict_SetItem(out, parts, u) < 0;
#endif
    Py_XDECREF(u);
    return bad ? -1 : 0;
}

/* grouped(pairs, known) -> {parts: keys}: the (parts, keys) pairs in order, equal parts
 * joined (bitsets.grouped_py), hashes taken from `known` where it has the very parts. */
static PyObject *
grouped(PyObject *self, PyObject *args)
{
    PyObject *pairs_o, *known_o;
    if (!PyArg_ParseTuple(args, "OO:grouped", &pairs_o, &known_o))
        return NULL;
    /* A tuple of our own: the caller's list cannot change under the unions. */
    PyObject *pairs = PySequence_Tuple(pairs_o);
    if (!pairs)
        return NULL;
    Known k;
    PyObject *out = NULL;
    if (known_init(&k, known_o) < 0)
        goto done;
    out = PyDict_New();
    if (!out)
        goto done;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(pairs); i++) {
        PyObject *pair = PyTuple_GET_ITEM(pairs, i);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_TypeError, "grouped() takes (parts, keys) pairs");
            Py_CLEAR(out);
            goto done;
        }
        PyObject *parts = PyTuple_GET_ITEM(pair, 0);
        if (group_join(out, parts, PyTuple_GET_ITEM(pair, 1), parts_hash(&k, parts)) < 0) {
            Py_CLEAR(out);
            goto done;
        }
    }
done:
    known_free(&k);
    Py_DECREF(pairs);
    return out;
}

/* hash_of(v) -> int: hash(v) as the group joins work it out (for the tests). */
static PyObject *
hash_of_py(PyObject *self, PyObject *v)
{
    Py_hash_t h = hash_of(v);
    return h == -1 ? NULL : PyLong_FromSsize_t(h);
}

/* ------------------------------------------------------------------ narrowed */

/* A regrouping's result: (groups, every square, kept). */
static PyObject *
regrouped(PyObject *out, const limb *every, Py_ssize_t W, int kept)
{
    PyObject *squares = store(every, W);
    return squares ? Py_BuildValue("(ONO)", out, squares, kept ? Py_True : Py_False) : NULL;
}


/* narrowed(groups, short_bits, long_bits) -> (groups, squares, kept): every group's
 * parts narrowed (narrow), groups whose parts come out equal joined (their keys'
 * union), empty parts' groups left out: fogofwar.core.bitsets.narrowed_py. */
static PyObject *
narrowed(PyObject *self, PyObject *args)
{
    PyObject *groups, *so, *lo;
    if (!PyArg_ParseTuple(args, "O!OO:narrowed", &PyDict_Type, &groups, &so, &lo))
        return NULL;
    /* The items first, in a list of our own: the dict is not read while ints load. */
    PyObject *items = PyDict_Items(groups);
    if (!items)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(items), W = 1;
    PyObject *out = PyDict_New(), *result = NULL;
    limb *buf = NULL;
    Mask ms = {0}, ml = {0};
    Known known = {0};
    int kept = 1;
    if (!out || known_init(&known, groups) < 0)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *pair = PyList_GET_ITEM(items, i);
        PyObject *parts = PyTuple_GET_ITEM(pair, 0), *keys = PyTuple_GET_ITEM(pair, 1);
        if (!PyTuple_Check(parts) || !PyFrozenSet_Check(keys)) {
            PyErr_SetString(PyExc_TypeError, "narrowed() takes {parts tuple: frozenset of keys}");
            goto done;
        }
        if (rect_widths(&PyTuple_GET_ITEM(parts, 0), PyTuple_GET_SIZE(parts), "narrowed", &W,
                        NULL) < 0)
            goto done;
    }
    if (mask_load(so, &ms, W) < 0 || mask_load(lo, &ml, W) < 0)
        goto done;
    buf = PyMem_Calloc((size_t)(6 * W), sizeof(limb));
    if (!buf) {
        PyErr_NoMemory();
        goto done;
    }
    limb *every = buf, *t = buf + W;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *pair = PyList_GET_ITEM(items, i);
        PyObject *parts = PyTuple_GET_ITEM(pair, 0), *keys = PyTuple_GET_ITEM(pair, 1);
        PyObject *got = narrow_loaded(parts, parts, &ms, &ml, W, buf + 2 * W);
        if (!got)
            goto done;
        Py_ssize_t np = PyTuple_GET_SIZE(got);
        if (!np) {
            kept = 0;
            Py_DECREF(got);
            continue;
        }
        if (!PySet_GET_SIZE(keys)) {
            Py_DECREF(got);
            continue;
        }
        int bad = 0;
        for (Py_ssize_t j = 0; j < np && !bad; j++) {
            PyObject *r = PyTuple_GET_ITEM(got, j);
            for (int k = 0; k < 2 && !bad; k++) {
                bad = load(PyTuple_GET_ITEM(r, k), t, W) < 0;
                for (Py_ssize_t q = 0; q < W && !bad; q++)
                    every[q] |= t[q];
            }
        }
        bad = bad || group_join(out, got, keys, parts_hash(&known, got)) < 0;
        Py_DECREF(got);
        if (bad)
            goto done;
    }
    result = regrouped(out, every, W, kept);
done:
    Py_DECREF(items);
    Py_XDECREF(out);
    PyMem_Free(ms.bits);
    PyMem_Free(ml.bits);
    PyMem_Free(buf);
    known_free(&known);
    return result;
}

/* ------------------------------------------------------------------ merged */

/* merged(pairs) -> (groups, squares, kept): for each (parts, keys, bits) of one part
 * (short, long, assignments), the part ((short | long) & bits, 0, assignments), groups
 * whose parts come out equal joined, empty ones left out: bitsets.merged_py. */
static PyObject *
merged(PyObject *self, PyObject *pairs_o)
{
    PyObject *pairs = PySequence_Tuple(pairs_o);
    if (!pairs)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(pairs), W = 1;
    PyObject *out = PyDict_New(), *zero = PyLong_FromLong(0), *result = NULL;
    limb *buf = NULL;
    Mask mask = {0};
    PyObject *last = NULL; /* the mask loaded (borrowed: the pairs hold it) */
    int kept = 1;
    if (!out || !zero)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PyTuple_GET_ITEM(pairs, i);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3 ||
            !PyTuple_Check(PyTuple_GET_ITEM(t, 0)) || PyTuple_GET_SIZE(PyTuple_GET_ITEM(t, 0)) != 1 ||
            !PyFrozenSet_Check(PyTuple_GET_ITEM(t, 1))) {
            PyErr_SetString(PyExc_TypeError,
                            "merged() takes (parts of one part, frozenset of keys, bits) triples");
            goto done;
        }
        PyObject *parts = PyTuple_GET_ITEM(t, 0);
        if (rect_widths(&PyTuple_GET_ITEM(parts, 0), 1, "merged", &W, NULL) < 0)
            goto done;
        if (!PyLong_Check(PyTuple_GET_ITEM(t, 2))) {
            PyErr_SetString(PyExc_TypeError, "merged(): bits must be an int");
            goto done;
        }
    }
    buf = PyMem_Calloc((size_t)(3 * W), sizeof(limb));
    if (!buf) {
        PyErr_NoMemory();
        goto done;
    }
    limb *every = buf, *sq = buf + W, *lq = buf + 2 * W;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PyTuple_GET_ITEM(pairs, i);
        PyObject *r = PyTuple_GET_ITEM(PyTuple_GET_ITEM(t, 0), 0), *keys = PyTuple_GET_ITEM(t, 1);
        if (PyTuple_GET_ITEM(t, 2) != last) {
            /* A few masks, one per reach: each loaded once in a row (negative ones too). */
            PyMem_Free(mask.bits);
            mask.bits = NULL;
            mask.inverted = 0;
            last = NULL;
            if (mask_load(PyTuple_GET_ITEM(t, 2), &mask, W) < 0)
                goto done;
            last = PyTuple_GET_ITEM(t, 2);
        }
        if (load(PyTuple_GET_ITEM(r, 0), sq, W) < 0 || load(PyTuple_GET_ITEM(r, 1), lq, W) < 0)
            goto done;
        int any = 0;
        for (Py_ssize_t k = 0; k < W; k++) {
            sq[k] = (sq[k] | lq[k]) & mask.bits[k];
            any |= sq[k] != 0;
        }
        if (!any) {
            kept = 0;
            continue;
        }
        if (!PySet_GET_SIZE(keys))
            continue;
        for (Py_ssize_t k = 0; k < W; k++)
            every[k] |= sq[k];
        PyObject *a = store(sq, W);
        PyObject *rect = a ? PyTuple_Pack(3, a, zero, PyTuple_GET_ITEM(r, 2)) : NULL;
        PyObject *got = rect ? PyTuple_Pack(1, rect) : NULL;
        Py_XDECREF(a);
        Py_XDECREF(rect);
        if (!got)
            goto done;
        int bad = group_join(out, got, keys, parts_hash(&no_known, got)) < 0;
        Py_DECREF(got);
        if (bad)
            goto done;
    }
    result = regrouped(out, every, W, kept);
done:
    Py_DECREF(pairs);
    Py_XDECREF(out);
    Py_XDECREF(zero);
    PyMem_Free(mask.bits);
    PyMem_Free(buf);
    return result;
}

/* ------------------------------------------------------------------ split */

/* OR the squares `sq` into the part of assignments `a` of `p`, made where new. */
static int
parts_or(Parts *p, const limb *a, const limb *sq)
{
    Py_ssize_t t = parts_find(p, a);
    if (t < 0 && (t = parts_add(p, a)) < 0)
        return -1;
    limb *ps = PART_S(p, t);
    for (Py_ssize_t k = 0; k < p->S; k++)
        ps[k] |= sq[k];
    return 0;
}

/* The objective check's zones, loaded once for every part of every group a fact
 * splits: the union of the zones, and per zone (disjoint) the assignments it rules
 * out and its squares. */
typedef struct {
    PyObject_HEAD
    Py_ssize_t S, A, R; /* limbs of squares and of assignments; zones */
    limb *uni;          /* S */
    limb *outs;         /* R * A */
    limb *zones;        /* R * S */
} Splitter;

static void
splitter_dealloc(Splitter *self)
{
    PyMem_Free(self->uni);
    PyMem_Free(self->outs);
    PyMem_Free(self->zones);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Copy `R` rows of `from` limbs into rows of `to` limbs (to >= from), zero-padded. */
static limb *
rows_widened(const limb *old, Py_ssize_t R, Py_ssize_t from, Py_ssize_t to)
{
    limb *out = PyMem_Calloc((size_t)((R ? R : 1) * to), sizeof(limb));
    if (!out) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t r = 0; r < R; r++)
        memcpy(out + r * to, old + r * from, (size_t)from * sizeof(limb));
    return out;
}

/* Make the zones at least S and A limbs wide (parts wider than the zones: the zones
 * have no bits there). */
static int
splitter_widen(Splitter *self, Py_ssize_t S, Py_ssize_t A)
{
    if (S > self->S) {
        limb *uni = rows_widened(self->uni, 1, self->S, S);
        limb *zones = uni ? rows_widened(self->zones, self->R, self->S, S) : NULL;
        if (!zones) {
            PyMem_Free(uni);
            return -1;
        }
        PyMem_Free(self->uni);
        PyMem_Free(self->zones);
        self->uni = uni;
        self->zones = zones;
        self->S = S;
    }
    if (A > self->A) {
        limb *outs = rows_widened(self->outs, self->R, self->A, A);
        if (!outs)
            return -1;
        PyMem_Free(self->outs);
        self->outs = outs;
        self->A = A;
    }
    return 0;
}

static PyObject *
splitter_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"union", "ruled", NULL};
    PyObject *uo, *ro;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO:Splitter", kwlist, &uo, &ro))
        return NULL;
    PyObject *rseq = own_tuple(ro, "Splitter() takes a sequence of (out, zone) pairs");
    if (!rseq)
        return NULL;
    Splitter *self = NULL;
    Py_ssize_t R = PyTuple_GET_SIZE(rseq), S = limbs_of(uo), A = 1;
    if (S < 0)
        goto fail;
    S = S > 1 ? S : 1;
    for (Py_ssize_t r = 0; r < R; r++) {
        PyObject *pair = PyTuple_GET_ITEM(rseq, r);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_Format(PyExc_TypeError, "Splitter() takes (out, zone) pairs, not %R", pair);
            goto fail;
        }
        Py_ssize_t wa = limbs_of(PyTuple_GET_ITEM(pair, 0));
        Py_ssize_t ws = wa < 0 ? -1 : limbs_of(PyTuple_GET_ITEM(pair, 1));
        if (ws < 0)
            goto fail;
        A = wa > A ? wa : A;
        S = ws > S ? ws : S;
    }
    self = (Splitter *)type->tp_alloc(type, 0);
    if (!self)
        goto fail;
    self->S = S;
    self->A = A;
    self->R = R;
    self->uni = PyMem_Calloc((size_t)S, sizeof(limb));
    self->outs = PyMem_Calloc((size_t)((R ? R : 1) * A), sizeof(limb));
    self->zones = PyMem_Calloc((size_t)((R ? R : 1) * S), sizeof(limb));
    if (!self->uni || !self->outs || !self->zones) {
        PyErr_NoMemory();
        goto fail;
    }
    if (load(uo, self->uni, S) < 0)
        goto fail;
    for (Py_ssize_t r = 0; r < R; r++) {
        PyObject *pair = PyTuple_GET_ITEM(rseq, r);
        if (load(PyTuple_GET_ITEM(pair, 0), self->outs + r * A, A) < 0 ||
            load(PyTuple_GET_ITEM(pair, 1), self->zones + r * S, S) < 0)
            goto fail;
    }
    Py_DECREF(rseq);
    return (PyObject *)self;
fail:
    Py_DECREF(rseq);
    Py_XDECREF(self);
    return NULL;
}

static PyObject *
splitter_call(Splitter *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"parts", "squares", "assignments", NULL};
    PyObject *parts, *so, *ao;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO:Splitter", kwlist, &parts, &so, &ao))
        return NULL;
    PyObject *seq = own_tuple(parts, "a Splitter takes a sequence of (short, long, assignments)");
    if (!seq)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(seq), S = self->S, A = self->A, R = self->R;
    PyObject **items = &PyTuple_GET_ITEM(seq, 0);
    PyObject *out = NULL;
    Parts by_a = {0}, cells = {0}, res = {0};
    Mask ms = {0}, ma = {0};
    limb *buf = NULL;
    if (rect_widths(items, n, "Splitter", &S, &A) < 0)
        goto done;
    if (mask_load(so, &ms, S) < 0 || mask_load(ao, &ma, A) < 0)
        goto done;
    /* Loading a negative mask may run Python code, which may call this splitter with
     * wider parts: widen it only now, and take the widths from it. */
    if (splitter_widen(self, S, A) < 0)
        goto done;
    S = self->S;
    A = self->A;
    if (mask_widen(&ms, S) < 0 || mask_widen(&ma, A) < 0)
        goto done;
    /* sq, lq, every, away, inside (S each); a, left (A each); refine's 4S + A. */
    buf = PyMem_Calloc((size_t)(9 * S + 3 * A), sizeof(limb));
    if (!buf) {
        PyErr_NoMemory();
        goto done;
    }
    limb *sq = buf, *lq = buf + S, *every = buf + 2 * S, *away = buf + 3 * S,
         *inside = buf + 4 * S, *a = buf + 5 * S, *left = a + A, *tmp = left + A;
    const limb *uni = self->uni;
    if (parts_init(&by_a, A, S, n < 32 ? n : 32) < 0 || parts_init(&cells, A, S, 32) < 0 ||
        parts_init(&res, A, S, 32) < 0)
        goto done;
    /* Short and long squares merge; a square in two parts joins their assignments. */
    int overlap = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *r = items[i];
        if (load(PyTuple_GET_ITEM(r, 0), sq, S) < 0 || load(PyTuple_GET_ITEM(r, 1), lq, S) < 0 ||
            load(PyTuple_GET_ITEM(r, 2), a, A) < 0)
            goto done;
        int any = 0;
        for (Py_ssize_t k = 0; k < S; k++) {
            sq[k] |= lq[k];
            any |= sq[k] != 0;
        }
        if (!any || is_zero(a, A))
            continue;
        for (Py_ssize_t k = 0; k < S; k++) {
            overlap |= (sq[k] & every[k]) != 0;
            every[k] |= sq[k];
        }
        if (parts_or(&by_a, a, sq) < 0)
            goto done;
    }
    const Parts *src = &by_a;
    if (overlap && by_a.n > 1) {
        if (refine(&by_a, &cells, tmp) < 0)
            goto done;
        src = &cells;
    }
    for (Py_ssize_t i = 0; i < src->n; i++) {
        if (!src->alive[i])
            continue;
        const limb *ps = PART_S(src, i), *pa = PART_A(src, i);
        int any_s = 0, any_a = 0, any_away = 0;
        for (Py_ssize_t k = 0; k < S; k++) {
            sq[k] = ps[k] & ms.bits[k];
            any_s |= sq[k] != 0;
        }
        for (Py_ssize_t k = 0; k < A; k++) {
            a[k] = pa[k] & ma.bits[k];
            any_a |= a[k] != 0;
        }
        if (!any_s || !any_a)
            continue;
        for (Py_ssize_t k = 0; k < S; k++) {
            away[k] = sq[k] & ~uni[k];
            any_away |= away[k] != 0;
            sq[k] &= uni[k];
        }
        if (any_away && parts_or(&res, a, away) < 0)
            goto done;
        for (Py_ssize_t r = 0; r < R && !is_zero(sq, S); r++) {
            const limb *zone = self->zones + r * S, *o = self->outs + r * A;
            int meets = 0, kept = 0;
            for (Py_ssize_t k = 0; k < S; k++) {
                inside[k] = sq[k] & zone[k];
                meets |= inside[k] != 0;
            }
            if (!meets)
                continue;
            for (Py_ssize_t k = 0; k < S; k++)
                sq[k] ^= inside[k];
            for (Py_ssize_t k = 0; k < A; k++) {
                left[k] = a[k] & ~o[k];
                kept |= left[k] != 0;
            }
            if (kept && parts_or(&res, left, inside) < 0)
                goto done;
        }
    }
    out = emit(&res);
done:
    Py_DECREF(seq);
    parts_free(&by_a);
    parts_free(&cells);
    parts_free(&res);
    PyMem_Free(ms.bits);
    PyMem_Free(ma.bits);
    PyMem_Free(buf);
    return out;
}

static PyTypeObject SplitterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fogofwar.core._bitsets.Splitter",
    .tp_basicsize = sizeof(Splitter),
    .tp_dealloc = (destructor)splitter_dealloc,
    .tp_call = (ternaryfunc)splitter_call,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Splitter(union, ruled): the zones of a fact that rules out assignments square\n"
              "by square; called with (parts, squares, assignments), the parts after it\n"
              "(fogofwar.core.bitsets.split_py with union and ruled fixed, in C).",
    .tp_new = splitter_new,
};

/* ------------------------------------------------------------------ Stepper */

typedef struct {
    PyObject_HEAD
    Py_ssize_t W;    /* limbs of the board */
    Py_ssize_t ndir; /* directions */
    Py_ssize_t *off; /* per direction: shift left (> 0) or right (< 0), in bits */
    limb *masks;     /* per direction: W limbs, the squares a step that way leaves from */
    limb *free;      /* W limbs: the squares a step may end on */
} Stepper;

static void
stepper_dealloc(Stepper *self)
{
    PyMem_Free(self->off);
    PyMem_Free(self->masks);
    PyMem_Free(self->free);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
stepper_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"directions", "free", NULL};
    PyObject *dirs, *freeo;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO:Stepper", kwlist, &dirs, &freeo))
        return NULL;
    PyObject *seq = PySequence_Fast(dirs, "Stepper() takes a sequence of (offset, squares)");
    if (!seq)
        return NULL;
    Py_ssize_t nd = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    Stepper *self = NULL;
    Py_ssize_t W = limbs_of(freeo);
    if (W < 0)
        goto fail;
    for (Py_ssize_t i = 0; i < nd; i++) {
        if (!PyTuple_Check(items[i]) || PyTuple_GET_SIZE(items[i]) != 2) {
            PyErr_Format(PyExc_TypeError, "Stepper() takes (offset, squares) pairs, not %R",
                         items[i]);
            goto fail;
        }
        Py_ssize_t w = limbs_of(PyTuple_GET_ITEM(items[i], 1));
        if (w < 0)
            goto fail;
        if (w > W)
            W = w;
    }
    if (W < 1)
        W = 1;
    self = (Stepper *)type->tp_alloc(type, 0);
    if (!self)
        goto fail;
    self->W = W;
    self->ndir = nd;
    self->off = PyMem_Calloc((size_t)(nd ? nd : 1), sizeof(Py_ssize_t));
    self->masks = PyMem_Calloc((size_t)((nd ? nd : 1) * W), sizeof(limb));
    self->free = PyMem_Calloc((size_t)W, sizeof(limb));
    if (!self->off || !self->masks || !self->free) {
        PyErr_NoMemory();
        goto fail;
    }
    if (load(freeo, self->free, W) < 0)
        goto fail;
    for (Py_ssize_t i = 0; i < nd; i++) {
        PyObject *offo = PyTuple_GET_ITEM(items[i], 0);
        if (!PyLong_Check(offo)) {
            PyErr_Format(PyExc_TypeError, "a step's offset must be an int, not %.100s",
                         Py_TYPE(offo)->tp_name);
            goto fail;
        }
        int overflow = 0;
        long long off = PyLong_AsLongLongAndOverflow(offo, &overflow);
        if (off == -1 && PyErr_Occurred())
            goto fail;
        if (!overflow && off == 0) {
            PyErr_SetString(PyExc_ValueError, "a step needs a non-zero offset");
            goto fail;
        }
        /* An offset as wide as the board or wider shifts every square off it: the
         * direction adds nothing (0 marks it), as the Python form's shift gives. */
        self->off[i] = overflow || off >= W * 64 || off <= -W * 64 ? 0 : (Py_ssize_t)off;
        if (load(PyTuple_GET_ITEM(items[i], 1), self->masks + i * W, W) < 0)
            goto fail;
    }
    Py_DECREF(seq);
    return (PyObject *)self;
fail:
    Py_DECREF(seq);
    Py_XDECREF(self);
    return NULL;
}

/* nxt = the squares one step from `from` (both W limbs). */
static void
step_limbs(const Stepper *st, const limb *from, limb *nxt, limb *t)
{
    /* One pass a direction: each limb of `from` masked and shifted into place, the bits
     * that cross into the next limb carried (the walks' innermost loop: an agent's move
     * at 4-5 players makes hundreds of thousands of these steps). */
    (void)t;
    Py_ssize_t W = st->W;
    memset(nxt, 0, (size_t)W * sizeof(limb));
    /* Only the limbs from the frontier's first to its last that holds a square are
     * read (an unseen move's frontier is a few rows of the board: a third of its
     * limbs or fewer), and a shifted limb's carry goes one limb further. */
    Py_ssize_t lo = 0, hi = W - 1;
    while (lo < W && !from[lo])
        lo++;
    if (lo == W)
        return;
    while (!from[hi])
        hi--;
    for (Py_ssize_t d = 0; d < st->ndir; d++) {
        Py_ssize_t off = st->off[d];
        if (!off)
            continue;
        const limb *m = st->masks + d * W;
        Py_ssize_t size = off > 0 ? off : -off;
        Py_ssize_t q = size >> 6;
        int r = (int)(size & 63);
        if (off > 0 && r == 0) {
            for (Py_ssize_t k = lo; k <= hi && k + q < W; k++)
                nxt[k + q] |= from[k] & m[k];
        }
        else if (off > 0) {
            limb carry = 0;
            for (Py_ssize_t k = lo; k <= hi + 1 && k + q < W; k++) {
                limb x = k <= hi ? from[k] & m[k] : 0;
                nxt[k + q] |= (x << r) | carry;
                carry = x >> (64 - r);
            }
        }
        else if (r == 0) {
            for (Py_ssize_t k = lo > q ? lo : q; k <= hi; k++)
                nxt[k - q] |= from[k] & m[k];
        }
        else {
            limb carry = 0;
            Py_ssize_t end = lo - 1 > q ? lo - 1 : q;
            for (Py_ssize_t k = hi; k >= end; k--) {
                limb x = k >= lo ? from[k] & m[k] : 0;
                nxt[k - q] |= (x >> r) | carry;
                carry = x << (64 - r);
            }
        }
    }
    for (Py_ssize_t k = 0; k < W; k++)
        nxt[k] &= st->free[k];
}

/* Read `v` into a fresh buffer of at least W limbs (zero-padded): *n gets its size. */
static limb *
load_wide(PyObject *v, Py_ssize_t W, Py_ssize_t *n)
{
    Py_ssize_t w = limbs_of(v);
    if (w < 0)
        return NULL;
    if (w < W)
        w = W;
    limb *buf = PyMem_Calloc((size_t)w, sizeof(limb));
    if (!buf)
        return (limb *)PyErr_NoMemory();
    if (load(v, buf, w) < 0) {
        PyMem_Free(buf);
        return NULL;
    }
    *n = w;
    return buf;
}

static PyObject *
stepper_call(Stepper *self, PyObject *args, PyObject *kwds)
{
    PyObject *frontier;
    if (kwds && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "a Stepper takes the frontier only");
        return NULL;
    }
    if (!PyArg_UnpackTuple(args, "Stepper", 1, 1, &frontier))
        return NULL;
    Py_ssize_t W = self->W, n;
    limb *from = load_wide(frontier, W, &n);
    if (!from)
        return NULL;
    limb *buf = PyMem_Malloc((size_t)(2 * W) * sizeof(limb));
    if (!buf) {
        PyMem_Free(from);
        return PyErr_NoMemory();
    }
    step_limbs(self, from, buf, buf + W);
    PyObject *out = store(buf, W);
    PyMem_Free(from);
    PyMem_Free(buf);
    return out;
}

static PyObject *
stepper_walk(Stepper *self, PyObject *args)
{
    PyObject *start, *seen;
    Py_ssize_t short_steps, total;
    if (!PyArg_ParseTuple(args, "OOnn:walk", &start, &seen, &short_steps, &total))
        return NULL;
    if (short_steps < 0 || total < short_steps) {
        PyErr_Format(PyExc_ValueError, "walk() needs 0 <= short <= total, not %zd and %zd",
                     short_steps, total);
        return NULL;
    }
    Py_ssize_t W = self->W, ns, nv;
    PyObject *out = NULL;
    limb *layer = load_wide(start, W, &ns);
    limb *unseen = layer ? load_wide(seen, ns, &nv) : NULL;
    /* Widths: the start may hold squares past the board (kept in layer 0, as the
     * Python form does); every later layer lies on the board's W limbs. */
    Py_ssize_t N = ns > nv ? ns : nv;
    limb *buf = unseen ? PyMem_Calloc((size_t)(4 * N), sizeof(limb)) : NULL;
    if (!buf) {
        if (unseen)
            PyErr_NoMemory();
        goto done;
    }
    limb *shrt = buf, *lng = buf + N, *nxt = buf + 2 * N, *t = buf + 3 * N;
    limb *cur = PyMem_Calloc((size_t)N, sizeof(limb));
    if (!cur) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < ns; k++)
        cur[k] = layer[k] & ~unseen[k];
    memcpy(shrt, cur, (size_t)N * sizeof(limb));
    for (Py_ssize_t i = 1; i <= total; i++) {
        step_limbs(self, cur, nxt, t);
        memset(cur, 0, (size_t)N * sizeof(limb));
        for (Py_ssize_t k = 0; k < W; k++)
            cur[k] = nxt[k] & ~unseen[k];
        limb *acc = i <= short_steps ? shrt : lng;
        for (Py_ssize_t k = 0; k < W; k++)
            acc[k] |= cur[k];
    }
    PyObject *a = store(shrt, N);
    PyObject *b = a ? store(lng, N) : NULL;
    PyObject *c = b ? store(cur, N) : NULL;
    if (c)
        out = PyList_New(3);
    if (!out) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        Py_XDECREF(c);
    }
    else {
        PyList_SET_ITEM(out, 0, a);
        PyList_SET_ITEM(out, 1, b);
        PyList_SET_ITEM(out, 2, c);
    }
    PyMem_Free(cur);
done:
    PyMem_Free(layer);
    PyMem_Free(unseen);
    PyMem_Free(buf);
    return out;
}

/* ------------------------------------------------------------------ Walks */

/* An unseen walk's layers from many starts, through the squares not in one `seen`:
 * Stepper.walks() makes it, Walks.parts() walks a map's parts with it. Each start's
 * walk is kept (by value): the parts of a map's groups share their starts. */
typedef struct {
    PyObject_HEAD
    Stepper *step;
    Py_ssize_t W;        /* limbs: the board's, or the seen squares' if wider */
    Py_ssize_t shrt, total, longer;
    limb *seen;          /* W limbs */
    limb *arena;         /* per start: start, short, long, last layer, long to `longer` */
    char *extended;      /* per start: whether its long-to-`longer` is made */
    Py_ssize_t n, cap;
    Py_ssize_t *slots;   /* start index + 1; 0 for an empty slot */
    Py_ssize_t nslots;
} Walks;

#define WALK(w, i) ((w)->arena + (i) * 5 * (w)->W)

static PyTypeObject WalksType;

static void
walks_dealloc(Walks *self)
{
    Py_XDECREF(self->step);
    PyMem_Free(self->seen);
    PyMem_Free(self->arena);
    PyMem_Free(self->extended);
    PyMem_Free(self->slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
stepper_walks(Stepper *self, PyObject *args)
{
    PyObject *seen;
    Py_ssize_t shrt, total, longer;
    if (!PyArg_ParseTuple(args, "Onnn:walks", &seen, &shrt, &total, &longer))
        return NULL;
    if (shrt < 0 || total < shrt || longer < total) {
        PyErr_Format(PyExc_ValueError,
                     "walks() needs 0 <= short <= total <= longer, not %zd, %zd and %zd", shrt,
                     total, longer);
        return NULL;
    }
    Py_ssize_t w = limbs_of(seen);
    if (w < 0)
        return NULL;
    Walks *out = (Walks *)WalksType.tp_alloc(&WalksType, 0);
    if (!out)
        return NULL;
    Py_INCREF(self);
    out->step = self;
    out->W = w > self->W ? w : self->W;
    out->shrt = shrt;
    out->total = total;
    out->longer = longer;
    out->cap = 16;
    out->nslots = 64;
    out->seen = PyMem_Calloc((size_t)out->W, sizeof(limb));
    out->arena = PyMem_Malloc((size_t)(out->cap * 5 * out->W) * sizeof(limb));
    out->extended = PyMem_Malloc((size_t)out->cap);
    out->slots = PyMem_Calloc((size_t)out->nslots, sizeof(Py_ssize_t));
    if (!out->seen || !out->arena || !out->extended || !out->slots) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    if (load(seen, out->seen, out->W) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return (PyObject *)out;
}

/* The index of the walk from `start` (W limbs), made if new; -1 on error. */
static Py_ssize_t
walks_find(Walks *w, const limb *start, limb *t)
{
    Py_ssize_t W = w->W;
    size_t mask = (size_t)w->nslots - 1;
    size_t j = (size_t)hash_limbs(start, W) & mask;
    for (;;) {
        Py_ssize_t k = w->slots[j];
        if (!k)
            break;
        if (memcmp(WALK(w, k - 1), start, (size_t)W * sizeof(limb)) == 0)
            return k - 1;
        j = (j + 1) & mask;
    }
    if (w->n == w->cap && grow(&w->arena, &w->extended, &w->cap, 5 * W) < 0)
        return -1;
    if (2 * (w->n + 1) > w->nslots) {
        Py_ssize_t size = w->nslots * 2;
        Py_ssize_t *slots = PyMem_Calloc((size_t)size, sizeof(Py_ssize_t));
        if (!slots) {
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t k = 0; k < w->n; k++) {
            size_t h = (size_t)hash_limbs(WALK(w, k), W) & ((size_t)size - 1);
            while (slots[h])
                h = (h + 1) & ((size_t)size - 1);
            slots[h] = k + 1;
        }
        PyMem_Free(w->slots);
        w->slots = slots;
        w->nslots = size;
        mask = (size_t)size - 1;
        j = (size_t)hash_limbs(start, W) & mask;
        while (w->slots[j])
            j = (j + 1) & mask;
    }
    Py_ssize_t i = w->n++;
    w->slots[j] = i + 1;
    w->extended[i] = 0;
    limb *e = WALK(w, i), *near = e + W, *far = e + 2 * W, *layer = e + 3 * W;
    memcpy(e, start, (size_t)W * sizeof(limb));
    memset(far, 0, (size_t)W * sizeof(limb));
    for (Py_ssize_t k = 0; k < W; k++)
        layer[k] = start[k] & ~w->seen[k];
    memcpy(near, layer, (size_t)W * sizeof(limb));
    Py_ssize_t SW = w->step->W;
    for (Py_ssize_t s = 1; s <= w->total; s++) {
        step_limbs(w->step, layer, t, t + W);
        for (Py_ssize_t k = 0; k < W; k++)
            layer[k] = (k < SW ? t[k] : 0) & ~w->seen[k];
        limb *acc = s <= w->shrt ? near : far;
        for (Py_ssize_t k = 0; k < W; k++)
            acc[k] |= layer[k];
    }
    return i;
}

/* The walk's long squares to `longer` steps (made once). */
static limb *
walks_longer(Walks *w, Py_ssize_t i, limb *t)
{
    Py_ssize_t W = w->W, SW = w->step->W;
    limb *e = WALK(w, i), *ext = e + 4 * W;
    if (!w->extended[i]) {
        limb *layer = t + 2 * W;
        memcpy(layer, e + 3 * W, (size_t)W * sizeof(limb));
        memcpy(ext, e + 2 * W, (size_t)W * sizeof(limb));
        for (Py_ssize_t s = w->total + 1; s <= w->longer; s++) {
            step_limbs(w->step, layer, t, t + W);
            for (Py_ssize_t k = 0; k < W; k++) {
                layer[k] = (k < SW ? t[k] : 0) & ~w->seen[k];
                ext[k] |= layer[k];
            }
        }
        w->extended[i] = 1;
    }
    return ext;
}

static PyObject *
walks_parts(Walks *self, PyObject *args)
{
    PyObject *parts, *no_end_o;
    int longer;
    if (!PyArg_ParseTuple(args, "OOp:parts", &parts, &no_end_o, &longer))
        return NULL;
    PyObject *seq = PySequence_Fast(parts, "parts() takes a sequence of (short, long, assignments)");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq), W = self->W, made = 0;
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *out = NULL, *result = NULL;
    limb *buf = NULL, *no_end = NULL;
    Py_ssize_t wo = limbs_of(no_end_o);
    if (wo < 0)
        goto done;
    /* A square past the walks' width is refused (the Python form refuses it too): the
     * board holds every square a part may be on. */
    no_end = PyMem_Calloc((size_t)(wo > W ? wo : W), sizeof(limb));
    buf = PyMem_Calloc((size_t)(6 * W), sizeof(limb));
    out = PyTuple_New(n);
    if (!no_end || !buf || !out) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        goto done;
    }
    if (load(no_end_o, no_end, wo > W ? wo : W) < 0)
        goto done;
    Py_ssize_t widest = 0;
    if (rect_widths(items, n, "parts", &widest, NULL) < 0)
        goto done;
    if (widest > W) {
        PyErr_Format(PyExc_ValueError, "a part's squares lie past the board's %zd bits", W * 64);
        goto done;
    }
    limb *start = buf, *t = buf + W; /* t: 5 W limbs of scratch for the steps */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *r = items[i];
        PyObject *so = PyTuple_GET_ITEM(r, 0), *lo = PyTuple_GET_ITEM(r, 1);
        if (load(so, start, W) < 0 || load(lo, t, W) < 0)
            goto done;
        for (Py_ssize_t k = 0; k < W; k++)
            start[k] |= t[k];
        Py_ssize_t e = walks_find(self, start, t);
        if (e < 0)
            goto done;
        const limb *near = WALK(self, e) + W;
        const limb *far = longer ? walks_longer(self, e, t) : WALK(self, e) + 2 * W;
        limb *ns = t + 3 * W, *nl = t + 4 * W;
        int any = 0;
        for (Py_ssize_t k = 0; k < W; k++) {
            ns[k] = near[k] & ~no_end[k];
            nl[k] = far[k] & ~no_end[k];
            any |= (ns[k] | nl[k]) != 0;
        }
        if (!any)
            continue;
        PyObject *a = store(ns, W);
        PyObject *b = a ? store(nl, W) : NULL;
        PyObject *rect = b ? PyTuple_New(3) : NULL;
        if (!rect) {
            Py_XDECREF(a);
            Py_XDECREF(b);
            goto done;
        }
        PyTuple_SET_ITEM(rect, 0, a);
        PyTuple_SET_ITEM(rect, 1, b);
        PyObject *assign = PyTuple_GET_ITEM(r, 2);
        Py_INCREF(assign);
        PyTuple_SET_ITEM(rect, 2, assign);
        PyTuple_SET_ITEM(out, made++, rect);
    }
    if (made == n) {
        result = out;
        out = NULL;
    }
    else {
        result = PyTuple_GetSlice(out, 0, made);
    }
done:
    Py_DECREF(seq);
    Py_XDECREF(out);
    PyMem_Free(no_end);
    PyMem_Free(buf);
    return result;
}

/* ------------------------------------------------------------------ played */

/* Rectangles in one arena, `2S + 1` limbs each: short squares, long, and the index of
 * their assignments in the call's table of assignments (`Atoms`). */
typedef struct {
    limb *arena;
    Py_ssize_t n, cap, stride;
} Rects;

static int
rects_push(Rects *r, const limb *sq, const limb *lq, Py_ssize_t atom, Py_ssize_t S)
{
    if (r->n == r->cap) {
        Py_ssize_t more = r->cap ? 2 * r->cap : 16;
        limb *arena = PyMem_Realloc(r->arena, (size_t)(more * r->stride) * sizeof(limb));
        if (!arena) {
            PyErr_NoMemory();
            return -1;
        }
        r->arena = arena;
        r->cap = more;
    }
    limb *p = r->arena + r->n++ * r->stride;
    memcpy(p, sq, (size_t)S * sizeof(limb));
    memcpy(p + S, lq, (size_t)S * sizeof(limb));
    p[2 * S] = (limb)atom;
    return 0;
}

/* Push (sq, lq, atom), or with a concealing mask `c` its part off `c` to `open` and on
 * it to `hidden`; empty rectangles are left out. `t` holds 2S limbs of scratch. */
static int
rects_push_split(Rects *open, Rects *hidden, const limb *sq, const limb *lq, Py_ssize_t atom,
                 const limb *c, Py_ssize_t S, limb *t)
{
    if (!c) {
        if (is_zero(sq, S) && is_zero(lq, S))
            return 0;
        return rects_push(open, sq, lq, atom, S);
    }
    limb *s2 = t, *l2 = t + S;
    int any = 0;
    for (Py_ssize_t k = 0; k < S; k++) {
        s2[k] = sq[k] & ~c[k];
        l2[k] = lq[k] & ~c[k];
        any |= (s2[k] | l2[k]) != 0;
    }
    if (any && rects_push(open, s2, l2, atom, S) < 0)
        return -1;
    any = 0;
    for (Py_ssize_t k = 0; k < S; k++) {
        s2[k] = sq[k] & c[k];
        l2[k] = lq[k] & c[k];
        any |= (s2[k] | l2[k]) != 0;
    }
    return any ? rects_push(hidden, s2, l2, atom, S) : 0;
}

/* The distinct assignments of one call (the parts' and any given rectangles'), each
 * with a slot of 2S limbs to gather a target's squares in: a rectangle names its
 * assignments by index, so a target's union needs no hashing of assignments. */
typedef struct {
    Parts table;      /* A limbs each, found by value */
    limb *acc;        /* per atom: 2S limbs */
    Py_ssize_t *stamp; /* per atom: the union that last touched it */
    Py_ssize_t *touched;
    char *empty;      /* per atom: no assignments (no worlds) */
    PyObject **objs;  /* per atom: an exact int of its assignments (borrowed), or NULL */
    Py_ssize_t unions;
} Atoms;

static Py_ssize_t
atom_of(Atoms *at, const limb *a)
{
    Py_ssize_t i = parts_find(&at->table, a);
    return i >= 0 ? i : parts_add(&at->table, a);
}

static int
atoms_ready(Atoms *at, Py_ssize_t S)
{
    Py_ssize_t n = at->table.n ? at->table.n : 1;
    at->acc = PyMem_Malloc((size_t)(n * 2 * S) * sizeof(limb));
    at->stamp = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    at->touched = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    at->empty = PyMem_Malloc((size_t)n);
    at->objs = PyMem_Calloc((size_t)n, sizeof(PyObject *));
    if (!at->acc || !at->stamp || !at->touched || !at->empty || !at->objs) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < at->table.n; i++) {
        at->stamp[i] = -1;
        at->empty[i] = (char)is_zero(PART_A(&at->table, i), at->table.A);
    }
    return 0;
}

static void
atoms_free(Atoms *at)
{
    parts_free(&at->table);
    PyMem_Free(at->acc);
    PyMem_Free(at->stamp);
    PyMem_Free(at->touched);
    PyMem_Free(at->empty);
    PyMem_Free(at->objs);
}

/* The canonical parts of the union of the rectangles of `k` arenas. */
static PyObject *
canon_rects(Rects *const *rs, Py_ssize_t k, Py_ssize_t S, Atoms *at, limb *tmp)
{
    Py_ssize_t A = at->table.A, nt = 0, me = at->unions++;
    for (Py_ssize_t i = 0; i < k; i++) {
        const Rects *r = rs[i];
        for (Py_ssize_t j = 0; j < r->n; j++) {
            const limb *p = r->arena + j * r->stride;
            Py_ssize_t ai = (Py_ssize_t)p[2 * S];
            if (at->empty[ai])
                continue;
            limb *acc = at->acc + ai * 2 * S;
            if (at->stamp[ai] != me) {
                at->stamp[ai] = me;
                at->touched[nt++] = ai;
                memcpy(acc, p, (size_t)(2 * S) * sizeof(limb));
                continue;
            }
            for (Py_ssize_t q = 0; q < 2 * S; q++)
                acc[q] |= p[q];
        }
    }
    /* One part per assignments touched (no index: refine finds nothing in by_a). */
    Parts by_a = {0}, cells = {0};
    PyObject *out = NULL;
    if (parts_init(&by_a, A, S, nt) < 0 || parts_init(&cells, A, S, 32) < 0)
        goto done;
    for (Py_ssize_t t = 0; t < nt; t++) {
        Py_ssize_t ai = at->touched[t];
        limb *dst = PART_A(&by_a, t);
        memcpy(dst, PART_A(&at->table, ai), (size_t)A * sizeof(limb));
        memcpy(dst + A, at->acc + ai * 2 * S, (size_t)(2 * S) * sizeof(limb));
        by_a.alive[t] = 1;
    }
    by_a.n = nt;
    out = emit_refined(&by_a, &cells, tmp, &at->table, at->objs);
done:
    parts_free(&by_a);
    parts_free(&cells);
    return out;
}

static PyObject *
played(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *parts, *ways, *targets;
    if (!PyArg_ParseTuple(args, "OOO:played", &parts, &ways, &targets))
        return NULL;
    PyObject *seq = own_tuple(parts, "played() takes a sequence of (short, long, assignments)");
    PyObject *wseq = seq ? own_tuple(ways, "played() takes a sequence of ways") : NULL;
    PyObject *tseq = wseq ? own_tuple(targets, "played() takes a sequence of targets") : NULL;
    if (!tseq) {
        Py_XDECREF(seq);
        Py_XDECREF(wseq);
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(seq), nw = PyTuple_GET_SIZE(wseq), nt = PyTuple_GET_SIZE(tseq);
    PyObject **items = &PyTuple_GET_ITEM(seq, 0);
    PyObject *out = NULL, *result = NULL;
    Rects *open = NULL, *hidden = NULL, **pick = NULL;
    limb *buf = NULL, *starts = NULL;
    Py_ssize_t *pa = NULL; /* each part's atom */
    Atoms at = {0};
    Mask *ends = NULL, *hides = NULL;
    Py_ssize_t S = 1, A = 1, board = 0;
    if (rect_widths(items, n, "played", &board, &A) < 0)
        goto done;
    S = board > S ? board : S;
    /* Check each way and widen S and A to every one. */
    for (Py_ssize_t i = 0; i < nw; i++) {
        PyObject *w = PyTuple_GET_ITEM(wseq, i);
        if (!PyTuple_Check(w) || PyTuple_GET_SIZE(w) != 4) {
            PyErr_Format(PyExc_TypeError,
                         "played() takes (walks or rectangles, no_end, longer, conceal) ways, "
                         "not %R", w);
            goto done;
        }
        PyObject *src = PyTuple_GET_ITEM(w, 0), *c = PyTuple_GET_ITEM(w, 3);
        if (PyObject_TypeCheck(src, &WalksType)) {
            Walks *wk = (Walks *)src;
            if (board > wk->W) {
                PyErr_Format(PyExc_ValueError, "a part's squares lie past the board's %zd bits",
                             wk->W * 64);
                goto done;
            }
            S = wk->W > S ? wk->W : S;
        }
        else if (PyTuple_Check(src)) {
            if (rect_widths(&PyTuple_GET_ITEM(src, 0), PyTuple_GET_SIZE(src), "played", &S, &A) < 0)
                goto done;
        }
        else {
            PyErr_Format(PyExc_TypeError, "a way's source is Walks or a tuple of rectangles, not %.100s",
                         Py_TYPE(src)->tp_name);
            goto done;
        }
        /* No end and the concealing mask are sets of squares: never negative. */
        if (limbs_of(PyTuple_GET_ITEM(w, 1)) < 0 || (c != Py_None && limbs_of(c) < 0))
            goto done;
    }
    Py_ssize_t most = 1; /* the longest target (a way may come twice in one) */
    for (Py_ssize_t t = 0; t < nt; t++) {
        PyObject *made = PyTuple_GET_ITEM(tseq, t);
        if (!PyTuple_Check(made)) {
            PyErr_Format(PyExc_TypeError, "a target is a tuple of way indices, not %R", made);
            goto done;
        }
        most = PyTuple_GET_SIZE(made) > most ? PyTuple_GET_SIZE(made) : most;
        for (Py_ssize_t q = 0; q < PyTuple_GET_SIZE(made); q++) {
            Py_ssize_t i = PyLong_AsSsize_t(PyTuple_GET_ITEM(made, q));
            if (i == -1 && PyErr_Occurred())
                goto done;
            if (i < 0 || i >= nw) {
                PyErr_Format(PyExc_IndexError, "a target names way %zd of %zd", i, nw);
                goto done;
            }
        }
    }
    open = PyMem_Calloc((size_t)(nw ? nw : 1), sizeof(Rects));
    hidden = PyMem_Calloc((size_t)(nw ? nw : 1), sizeof(Rects));
    pick = PyMem_Calloc((size_t)most, sizeof(Rects *));
    ends = PyMem_Calloc((size_t)(nw ? nw : 1), sizeof(Mask));
    hides = PyMem_Calloc((size_t)(nw ? nw : 1), sizeof(Mask));
    starts = PyMem_Calloc((size_t)((n ? n : 1) * S), sizeof(limb));
    pa = PyMem_Calloc((size_t)(n ? n : 1), sizeof(Py_ssize_t));
    /* sq, lq, ns, nl (S each), a (A), scratch 3S for walks and 2S for splits, 4S + A for refine */
    buf = PyMem_Calloc((size_t)(14 * S + 2 * A), sizeof(limb));
    if (!open || !hidden || !pick || !ends || !hides || !starts || !pa || !buf) {
        PyErr_NoMemory();
        goto done;
    }
    if (parts_init(&at.table, A, 0, n + 1) < 0)
        goto done;
    limb *sq = buf, *lq = buf + S, *ns = buf + 2 * S, *nl = buf + 3 * S, *a = buf + 4 * S,
         *scratch = a + A, *split_t = scratch + 3 * S, *tmp = split_t + 2 * S;
    for (Py_ssize_t i = 0; i < nw; i++) {
        open[i].stride = hidden[i].stride = 2 * S + 1;
        PyObject *w = PyTuple_GET_ITEM(wseq, i);
        PyObject *c = PyTuple_GET_ITEM(w, 3);
        if (mask_load(PyTuple_GET_ITEM(w, 1), &ends[i], S) < 0)
            goto done;
        if (c != Py_None && mask_load(c, &hides[i], S) < 0)
            goto done;
    }
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *r = items[j];
        limb *st = starts + j * S;
        if (load(PyTuple_GET_ITEM(r, 0), st, S) < 0 || load(PyTuple_GET_ITEM(r, 1), lq, S) < 0 ||
            load(PyTuple_GET_ITEM(r, 2), a, A) < 0)
            goto done;
        for (Py_ssize_t k = 0; k < S; k++)
            st[k] |= lq[k];
        if ((pa[j] = atom_of(&at, a)) < 0)
            goto done;
    }
    /* Each way's rectangles: an unseen walk from each part's squares, or given. */
    for (Py_ssize_t i = 0; i < nw; i++) {
        PyObject *w = PyTuple_GET_ITEM(wseq, i);
        PyObject *src = PyTuple_GET_ITEM(w, 0);
        int longer = PyObject_IsTrue(PyTuple_GET_ITEM(w, 2));
        if (longer < 0)
            goto done;
        const limb *no_end = ends[i].bits, *c = hides[i].bits;
        if (PyObject_TypeCheck(src, &WalksType)) {
            Walks *wk = (Walks *)src;
            Py_ssize_t W = wk->W;
            for (Py_ssize_t j = 0; j < n; j++) {
                /* The walk reads W limbs of the start; any past them are zero (checked). */
                Py_ssize_t e = walks_find(wk, starts + j * S, scratch);
                if (e < 0)
                    goto done;
                const limb *near = WALK(wk, e) + W;
                const limb *far = longer ? walks_longer(wk, e, scratch) : WALK(wk, e) + 2 * W;
                for (Py_ssize_t k = 0; k < S; k++) {
                    ns[k] = k < W ? near[k] & ~no_end[k] : 0;
                    nl[k] = k < W ? far[k] & ~no_end[k] : 0;
                }
                if (rects_push_split(&open[i], &hidden[i], ns, nl, pa[j], c, S, split_t) < 0)
                    goto done;
            }
        }
        else {
            Py_ssize_t m = PyTuple_GET_SIZE(src);
            for (Py_ssize_t j = 0; j < m; j++) {
                PyObject *r = PyTuple_GET_ITEM(src, j);
                if (load(PyTuple_GET_ITEM(r, 0), sq, S) < 0 || load(PyTuple_GET_ITEM(r, 1), lq, S) < 0 ||
                    load(PyTuple_GET_ITEM(r, 2), a, A) < 0)
                    goto done;
                Py_ssize_t ai = atom_of(&at, a);
                if (ai < 0 || rects_push_split(&open[i], &hidden[i], sq, lq, ai, c, S, split_t) < 0)
                    goto done;
            }
        }
    }
    if (atoms_ready(&at, S) < 0)
        goto done;
    /* The parts' own ints of their assignments, for the parts emitted with the same. */
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *ao = PyTuple_GET_ITEM(items[j], 2); /* alive in seq */
        if (!at.objs[pa[j]] && PyLong_CheckExact(ao))
            at.objs[pa[j]] = ao;
    }
    out = PyTuple_New(nt);
    if (!out)
        goto done;
    for (Py_ssize_t t = 0; t < nt; t++) {
        PyObject *made = PyTuple_GET_ITEM(tseq, t);
        Py_ssize_t k = PyTuple_GET_SIZE(made);
        int concealing = 0;
        for (Py_ssize_t q = 0; q < k; q++) {
            Py_ssize_t i = PyLong_AsSsize_t(PyTuple_GET_ITEM(made, q));
            pick[q] = &open[i];
            concealing |= hides[i].bits != NULL;
        }
        PyObject *o = canon_rects(pick, k, S, &at, tmp);
        if (!o)
            goto done;
        for (Py_ssize_t q = 0; q < k; q++)
            pick[q] = &hidden[PyLong_AsSsize_t(PyTuple_GET_ITEM(made, q))];
        PyObject *h = concealing ? canon_rects(pick, k, S, &at, tmp) : PyTuple_New(0);
        PyObject *pair = h ? PyTuple_Pack(2, o, h) : NULL;
        Py_DECREF(o);
        Py_XDECREF(h);
        if (!pair)
            goto done;
        PyTuple_SET_ITEM(out, t, pair);
    }
    result = out;
    out = NULL;
done:
    Py_DECREF(seq);
    Py_DECREF(wseq);
    Py_DECREF(tseq);
    Py_XDECREF(out);
    for (Py_ssize_t i = 0; i < nw && open; i++) {
        PyMem_Free(open[i].arena);
        PyMem_Free(hidden[i].arena);
    }
    for (Py_ssize_t i = 0; i < nw && ends; i++) {
        PyMem_Free(ends[i].bits);
        PyMem_Free(hides[i].bits);
    }
    PyMem_Free(open);
    PyMem_Free(hidden);
    PyMem_Free(pick);
    PyMem_Free(ends);
    PyMem_Free(hides);
    PyMem_Free(starts);
    PyMem_Free(pa);
    atoms_free(&at);
    PyMem_Free(buf);
    return result;
}

/* ------------------------------------------------------------------ keys_after, ored */

/* The key join takes sets and frozensets themselves, not subclasses: a subclass's set
 * operations could return anything, which the join reads as a set. */
#define EXACT_SET(v) (PyFrozenSet_CheckExact(v) || PySet_CheckExact(v))

/* One (short, long, keys) triple of a move's key join: its squares as limbs (short then
 * long, `wide` limbs each), its keys (borrowed), and its squares as ints once made (or
 * given: owned either way). */
typedef struct {
    const limb *sl;
    PyObject *keys;
    PyObject *s, *l;
} Made;

/* The ints of a Made's squares, made once. */
static int
made_ints(Made *m, Py_ssize_t wide)
{
    if (!m->s && !(m->s = store(m->sl, wide)))
        return -1;
    if (!m->l && !(m->l = store(m->sl + wide, wide)))
        return -1;
    return 0;
}

/* out[(s, l)] = keys, or its union with the keys there (`cur | keys`; with `list`,
 * `cur.union(keys)` and a new frozenset of the list where none is there). */
static int
join_into(PyObject *out, PyObject *s, PyObject *l, PyObject *keys, int list)
{
    PyObject *sl = PyTuple_Pack(2, s, l);
    if (!sl)
        return -1;
    PyObject *cur = PyDict_GetItemWithError(out, sl), *u;
    if (cur)
        u = list ? PyObject_CallMethod(cur, "union", "O", keys) : PyNumber_Or(cur, keys);
    else if (PyErr_Occurred())
        u = NULL;
    else if (list)
        u = PyFrozenSet_New(keys);
    else
        u = Py_NewRef(keys);
    int bad = !u || PyDict_SetItem(out, sl, u) < 0;
    Py_XDECREF(u);
    Py_DECREF(sl);
    return bad ? -1 : 0;
}

/* keys_after over `n` Made triples: fogofwar.core.bitsets.keys_after_py, the same set
 * operations in the same order (so the dict and every set come out in the same order
 * as the Python form's); a key made twice has its squares ORed as limbs. */
static PyObject *
join_made(Made *m, Py_ssize_t n, Py_ssize_t wide)
{
    PyObject *out = PyDict_New(), *seen = PySet_New(NULL), *twice = PySet_New(NULL);
    PyObject *slot_of = NULL, *result = NULL;
    PyObject **skeys = NULL; /* per slot (a key made twice, in the order met): the key */
    limb *acc = NULL;        /* per slot: its short and long squares */
    Py_ssize_t *group = NULL, nslots = 0, ngroups = 0;
    if (!out || !seen || !twice)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *inter = PyNumber_And(seen, m[i].keys);
        if (!inter)
            goto done;
        if (PySet_GET_SIZE(inter)) {
            PyObject *r = PyNumber_InPlaceOr(twice, inter);
            Py_DECREF(inter);
            if (!r)
                goto done;
            Py_DECREF(r);
        }
        else {
            Py_DECREF(inter);
        }
        PyObject *r = PyNumber_InPlaceOr(seen, m[i].keys);
        if (!r)
            goto done;
        Py_DECREF(r);
    }
    Py_ssize_t ntwice = PySet_GET_SIZE(twice);
    if (ntwice) {
        slot_of = PyDict_New();
        skeys = PyMem_Calloc((size_t)ntwice, sizeof(PyObject *));
        acc = PyMem_Calloc((size_t)(2 * ntwice * wide), sizeof(limb));
        group = PyMem_Calloc((size_t)ntwice, sizeof(Py_ssize_t));
        if (!slot_of || !skeys || !acc || !group) {
            if (!PyErr_Occurred())
                PyErr_NoMemory();
            goto done;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *moved = Py_NewRef(m[i].keys);
        if (ntwice) {
            PyObject *inter = PyNumber_And(moved, twice);
            if (!inter) {
                Py_DECREF(moved);
                goto done;
            }
            PyObject *key;
            int bad = 0;
#if KNOWN_HASH
            Py_ssize_t pos = 0;
            Py_hash_t hash;
            while (!bad && _PySet_NextEntry(inter, &pos, &key, &hash) > 0) {
                PyObject *got = _PyDict_GetItem_KnownHash(slot_of, key, hash);
#else
            PyObject *it = PyObject_GetIter(inter);
            bad = !it;
            while (!bad && (key = PyIter_Next(it))) {
                Py_DECREF(key); /* alive in `inter` */
                PyObject *got = PyDict_GetItemWithError(slot_of, key);
#endif
                if (got) {
                    Py_ssize_t k = PyLong_AsSsize_t(got);
                    limb *a = acc + 2 * k * wide;
                    for (Py_ssize_t j = 0; j < 2 * wide; j++)
                        a[j] |= m[i].sl[j];
                    continue;
                }
                if (PyErr_Occurred() || nslots == ntwice) {
                    if (!PyErr_Occurred())
                        PyErr_SetString(PyExc_RuntimeError, "keys_after: a key made twice twice over");
                    bad = 1;
                    break;
                }
                PyObject *k = PyLong_FromSsize_t(nslots);
#if KNOWN_HASH
                bad = !k || _PyDict_SetItem_KnownHash(slot_of, key, k, hash) < 0;
#else
                bad = !k || PyDict_SetItem(slot_of, key, k) < 0;
#endif
                Py_XDECREF(k);
                if (bad)
                    break;
                skeys[nslots] = Py_NewRef(key);
                memcpy(acc + 2 * nslots * wide, m[i].sl, (size_t)(2 * wide) * sizeof(limb));
                nslots++;
            }
#if !KNOWN_HASH
            Py_XDECREF(it);
            bad = bad || PyErr_Occurred();
#endif
            Py_DECREF(inter);
            if (bad) {
                Py_DECREF(moved);
                goto done;
            }
            PyObject *rest = PyNumber_Subtract(moved, twice);
            Py_DECREF(moved);
            if (!rest)
                goto done;
            moved = rest;
            if (!PySet_GET_SIZE(moved)) {
                Py_DECREF(moved);
                continue;
            }
        }
        int bad = made_ints(&m[i], wide) < 0 || join_into(out, m[i].s, m[i].l, moved, 0) < 0;
        Py_DECREF(moved);
        if (bad)
            goto done;
    }
    /* The keys made twice, grouped by their squares in the order met. */
    for (Py_ssize_t k = 0; k < nslots; k++) {
        const limb *a = acc + 2 * k * wide;
        Py_ssize_t g = 0;
        while (g < ngroups && memcmp(acc + 2 * group[g] * wide, a,
                                     (size_t)(2 * wide) * sizeof(limb)) != 0)
            g++;
        if (g == ngroups)
            group[ngroups++] = k;
    }
    for (Py_ssize_t g = 0; g < ngroups; g++) {
        const limb *a = acc + 2 * group[g] * wide;
        PyObject *ks = PyList_New(0);
        if (!ks)
            goto done;
        for (Py_ssize_t k = group[g]; k < nslots; k++) {
            if (memcmp(acc + 2 * k * wide, a, (size_t)(2 * wide) * sizeof(limb)) == 0 &&
                PyList_Append(ks, skeys[k]) < 0) {
                Py_DECREF(ks);
                goto done;
            }
        }
        PyObject *s = store(a, wide), *l = s ? store(a + wide, wide) : NULL;
        int bad = !l || join_into(out, s, l, ks, 1) < 0;
        Py_XDECREF(s);
        Py_XDECREF(l);
        Py_DECREF(ks);
        if (bad)
            goto done;
    }
    result = out;
    out = NULL;
done:
    for (Py_ssize_t k = 0; k < nslots; k++)
        Py_DECREF(skeys[k]);
    PyMem_Free(skeys);
    PyMem_Free(acc);
    PyMem_Free(group);
    Py_XDECREF(slot_of);
    Py_XDECREF(out);
    Py_XDECREF(seen);
    Py_XDECREF(twice);
    return result;
}

static PyObject *
keys_after(PyObject *mod, PyObject *made_o)
{
    PyObject *list = PySequence_List(made_o), *result = NULL;
    if (!list)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(list), wide = 1;
    Made *m = PyMem_Calloc((size_t)(n ? n : 1), sizeof(Made));
    limb *arena = NULL;
    if (!m) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PyList_GET_ITEM(list, i);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3 ||
            !EXACT_SET(PyTuple_GET_ITEM(t, 2))) {
            PyErr_SetString(PyExc_TypeError, "keys_after() takes (short, long, keys) tuples");
            goto done;
        }
        for (int k = 0; k < 2; k++) {
            Py_ssize_t w = limbs_of(PyTuple_GET_ITEM(t, k));
            if (w < 0)
                goto done;
            if (w > wide)
                wide = w;
        }
    }
    arena = PyMem_Calloc((size_t)(2 * (n ? n : 1) * wide), sizeof(limb));
    if (!arena) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PyList_GET_ITEM(list, i);
        limb *sl = arena + 2 * i * wide;
        if (load(PyTuple_GET_ITEM(t, 0), sl, wide) < 0 ||
            load(PyTuple_GET_ITEM(t, 1), sl + wide, wide) < 0)
            goto done;
        m[i].sl = sl;
        m[i].keys = PyTuple_GET_ITEM(t, 2);
        m[i].s = Py_NewRef(PyTuple_GET_ITEM(t, 0));
        m[i].l = Py_NewRef(PyTuple_GET_ITEM(t, 1));
    }
    result = join_made(m, n, wide);
done:
    for (Py_ssize_t i = 0; m && i < n; i++) {
        Py_XDECREF(m[i].s);
        Py_XDECREF(m[i].l);
    }
    PyMem_Free(m);
    PyMem_Free(arena);
    Py_DECREF(list);
    return result;
}

/* One way of a plain move (ored): its walks, the squares it may not end on, and
 * whether its walks run longer. */
typedef struct {
    Walks *walks;
    limb *no_end; /* `wide` limbs */
    int longer;
} PlainWay;

static PyObject *
ored(PyObject *mod, PyObject *args)
{
    PyObject *groups_o, *ways_o, *full;
    if (!PyArg_ParseTuple(args, "OOO:ored", &groups_o, &ways_o, &full))
        return NULL;
    /* Tuples of our own (as narrow's): code a call may run (a key's __eq__, a flag's
     * __bool__) cannot change or free what the groups and ways hold under us. */
    PyObject *groups = own_tuple(groups_o, "ored() takes a sequence of groups");
    if (!groups)
        return NULL;
    PyObject *ways = own_tuple(ways_o, "ored() takes a sequence of ways");
    if (!ways) {
        Py_DECREF(groups);
        return NULL;
    }
    Py_ssize_t ng = PyTuple_GET_SIZE(groups), nw = PyTuple_GET_SIZE(ways);
    PyObject **gs = &PyTuple_GET_ITEM(groups, 0), **ws = &PyTuple_GET_ITEM(ways, 0);
    PlainWay *pw = PyMem_Calloc((size_t)(nw ? nw : 1), sizeof(PlainWay));
    PyObject *result = NULL, *joined = NULL, *parts = NULL;
    limb *buf = NULL, *done = NULL, *arena = NULL;
    Made *made = NULL;
    /* limbs of every bitset; ways of the largest group; targets in all; made */
    Py_ssize_t wide = 1, most = 1, ntargets = 0, nm = 0;
    int lost = 0;
    if (!pw) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nw; i++) {
        PyObject *w = ws[i];
        if (!PyTuple_Check(w) || PyTuple_GET_SIZE(w) != 3 ||
            !PyObject_TypeCheck(PyTuple_GET_ITEM(w, 0), &WalksType)) {
            PyErr_SetString(PyExc_TypeError, "ored() takes (Walks, no_end, longer) ways");
            goto done;
        }
        Walks *wk = (Walks *)PyTuple_GET_ITEM(w, 0);
        Py_ssize_t wo = limbs_of(PyTuple_GET_ITEM(w, 1));
        if (wo < 0)
            goto done;
        if (wk->W > wide)
            wide = wk->W;
        if (wo > wide)
            wide = wo;
    }
    for (Py_ssize_t g = 0; g < ng; g++) {
        PyObject *t = gs[g];
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3 ||
            !PyTuple_Check(PyTuple_GET_ITEM(t, 0)) || PyTuple_GET_SIZE(PyTuple_GET_ITEM(t, 0)) != 3 ||
            !PyTuple_Check(PyTuple_GET_ITEM(t, 1)) || !PyTuple_Check(PyTuple_GET_ITEM(t, 2))) {
            PyErr_SetString(PyExc_TypeError,
                            "ored() takes (part, way indices, targets) groups, all tuples");
            goto done;
        }
        PyObject *part = PyTuple_GET_ITEM(t, 0);
        for (int k = 0; k < 2; k++) {
            Py_ssize_t wp = limbs_of(PyTuple_GET_ITEM(part, k));
            if (wp < 0)
                goto done;
            if (wp > wide)
                wide = wp;
        }
        if (PyTuple_GET_SIZE(PyTuple_GET_ITEM(t, 1)) > most)
            most = PyTuple_GET_SIZE(PyTuple_GET_ITEM(t, 1));
        ntargets += PyTuple_GET_SIZE(PyTuple_GET_ITEM(t, 2));
    }
    for (Py_ssize_t i = 0; i < nw; i++) {
        PyObject *w = ws[i];
        pw[i].walks = (Walks *)PyTuple_GET_ITEM(w, 0);
        pw[i].longer = PyObject_IsTrue(PyTuple_GET_ITEM(w, 2));
        if (pw[i].longer < 0)
            goto done;
        pw[i].no_end = PyMem_Calloc((size_t)wide, sizeof(limb));
        if (!pw[i].no_end) {
            PyErr_NoMemory();
            goto done;
        }
        if (load(PyTuple_GET_ITEM(w, 1), pw[i].no_end, wide) < 0)
            goto done;
    }
    /* start, 5 of scratch (the walks' own) */
    buf = PyMem_Calloc((size_t)(6 * wide), sizeof(limb));
    done = PyMem_Calloc((size_t)(2 * most * wide), sizeof(limb));
    made = PyMem_Calloc((size_t)(ntargets ? ntargets : 1), sizeof(Made));
    arena = PyMem_Calloc((size_t)(2 * (ntargets ? ntargets : 1) * wide), sizeof(limb));
    if (!buf || !done || !made || !arena) {
        PyErr_NoMemory();
        goto done;
    }
    limb *start = buf, *t = buf + wide;
    for (Py_ssize_t g = 0; g < ng; g++) {
        PyObject *grp = gs[g], *part = PyTuple_GET_ITEM(grp, 0);
        PyObject *ids = PyTuple_GET_ITEM(grp, 1), *targets = PyTuple_GET_ITEM(grp, 2);
        if (load(PyTuple_GET_ITEM(part, 0), start, wide) < 0 ||
            load(PyTuple_GET_ITEM(part, 1), t, wide) < 0)
            goto done;
        for (Py_ssize_t k = 0; k < wide; k++)
            start[k] |= t[k];
        Py_ssize_t nid = PyTuple_GET_SIZE(ids);
        for (Py_ssize_t j = 0; j < nid; j++) {
            Py_ssize_t wi = PyLong_AsSsize_t(PyTuple_GET_ITEM(ids, j));
            if (wi == -1 && PyErr_Occurred())
                goto done;
            if (wi < 0 || wi >= nw) {
                PyErr_Format(PyExc_IndexError, "a group names way %zd of %zd", wi, nw);
                goto done;
            }
            Walks *wk = pw[wi].walks;
            Py_ssize_t W = wk->W;
            for (Py_ssize_t k = W; k < wide; k++)
                if (start[k]) {
                    PyErr_Format(PyExc_ValueError,
                                 "a part's squares lie past the board's %zd bits", W * 64);
                    goto done;
                }
            Py_ssize_t e = walks_find(wk, start, t);
            if (e < 0)
                goto done;
            const limb *near = WALK(wk, e) + W;
            const limb *far = pw[wi].longer ? walks_longer(wk, e, t) : WALK(wk, e) + 2 * W;
            limb *ds = done + 2 * j * wide, *dl = ds + wide;
            const limb *ne = pw[wi].no_end;
            for (Py_ssize_t k = 0; k < wide; k++) {
                ds[k] = k < W ? near[k] & ~ne[k] : 0;
                dl[k] = k < W ? far[k] & ~ne[k] : 0;
            }
        }
        Py_ssize_t nt = PyTuple_GET_SIZE(targets);
        for (Py_ssize_t i = 0; i < nt; i++) {
            PyObject *target = PyTuple_GET_ITEM(targets, i);
            if (!PyTuple_Check(target) || PyTuple_GET_SIZE(target) != 2 ||
                !PyTuple_Check(PyTuple_GET_ITEM(target, 0)) ||
                !EXACT_SET(PyTuple_GET_ITEM(target, 1))) {
                PyErr_SetString(PyExc_TypeError, "ored() takes (way indices, keys) targets");
                goto done;
            }
            PyObject *played = PyTuple_GET_ITEM(target, 0);
            if (nm == ntargets) {
                PyErr_SetString(PyExc_RuntimeError, "ored(): the groups changed during the call");
                goto done;
            }
            limb *ts = arena + 2 * nm * wide, *tl = ts + wide;
            memset(ts, 0, (size_t)(2 * wide) * sizeof(limb));
            for (Py_ssize_t p = 0; p < PyTuple_GET_SIZE(played); p++) {
                Py_ssize_t j = PyLong_AsSsize_t(PyTuple_GET_ITEM(played, p));
                if (j == -1 && PyErr_Occurred())
                    goto done;
                if (j < 0 || j >= nid) {
                    PyErr_Format(PyExc_IndexError, "a target names way %zd of %zd", j, nid);
                    goto done;
                }
                const limb *ds = done + 2 * j * wide, *dl = ds + wide;
                for (Py_ssize_t k = 0; k < wide; k++) {
                    ts[k] |= ds[k];
                    tl[k] |= dl[k];
                }
            }
            int any = 0;
            for (Py_ssize_t k = 0; k < 2 * wide; k++)
                any |= ts[k] != 0;
            if (!any) {
                lost = 1;
                continue;
            }
            made[nm].sl = ts;
            made[nm].keys = PyTuple_GET_ITEM(target, 1);
            nm++;
        }
    }
    joined = join_made(made, nm, wide);
    parts = joined ? PyDict_New() : NULL;
    if (!parts)
        goto done;
    {
        /* {((short, long, full),): keys}, and every square */
        Py_ssize_t pos = 0;
        PyObject *sl, *keys;
        limb *every = buf, *one = buf + wide;
        memset(every, 0, (size_t)wide * sizeof(limb));
        while (PyDict_Next(joined, &pos, &sl, &keys)) {
            PyObject *s = PyTuple_GET_ITEM(sl, 0), *l = PyTuple_GET_ITEM(sl, 1);
            if (load(s, one, wide) < 0)
                goto done;
            for (Py_ssize_t k = 0; k < wide; k++)
                every[k] |= one[k];
            if (load(l, one, wide) < 0)
                goto done;
            for (Py_ssize_t k = 0; k < wide; k++)
                every[k] |= one[k];
            PyObject *rect = PyTuple_Pack(3, s, l, full);
            PyObject *key = rect ? PyTuple_Pack(1, rect) : NULL;
            Py_XDECREF(rect);
            int bad = !key || PyDict_SetItem(parts, key, keys) < 0;
            Py_XDECREF(key);
            if (bad)
                goto done;
        }
        PyObject *squares = store(every, wide);
        if (squares)
            result = Py_BuildValue("(ONO)", parts, squares, lost ? Py_True : Py_False);
    }
done:
    for (Py_ssize_t i = 0; pw && i < nw; i++)
        PyMem_Free(pw[i].no_end);
    PyMem_Free(pw);
    PyMem_Free(buf);
    PyMem_Free(done);
    for (Py_ssize_t i = 0; made && i < nm; i++) {
        Py_XDECREF(made[i].s);
        Py_XDECREF(made[i].l);
    }
    PyMem_Free(made);
    PyMem_Free(arena);
    Py_XDECREF(joined);
    Py_XDECREF(parts);
    Py_DECREF(groups);
    Py_DECREF(ways);
    return result;
}

static PyMethodDef walks_methods[] = {
    {"parts", (PyCFunction)walks_parts, METH_VARARGS,
     "parts(parts, no_end, longer) -> rects: for each (short, long, assignments) part, the\n"
     "squares not in no_end its walk from short | long reaches after 0..short steps and\n"
     "after short+1..total (..longer with `longer`), with the part's assignments; empty\n"
     "rectangles are left out."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject WalksType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fogofwar.core._bitsets.Walks",
    .tp_basicsize = sizeof(Walks),
    .tp_dealloc = (destructor)walks_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Unseen walks from many starts through one set of seen squares (Stepper.walks).",
    .tp_methods = walks_methods,
};

/* How a Stepper pickles (and deep-copies): its type called with directions and free
 * squares that make the same tables. A direction that adds nothing (offset 0 here: it
 * was as wide as the board or wider) is given back as the board's width in bits. */
static PyObject *
stepper_reduce(Stepper *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *dirs = PyTuple_New(self->ndir);
    if (!dirs)
        return NULL;
    for (Py_ssize_t i = 0; i < self->ndir; i++) {
        Py_ssize_t off = self->off[i] ? self->off[i] : self->W * 64;
        PyObject *offo = PyLong_FromSsize_t(off);
        PyObject *sq = offo ? store(self->masks + i * self->W, self->W) : NULL;
        PyObject *pair = sq ? PyTuple_Pack(2, offo, sq) : NULL;
        Py_XDECREF(offo);
        Py_XDECREF(sq);
        if (!pair) {
            Py_DECREF(dirs);
            return NULL;
        }
        PyTuple_SET_ITEM(dirs, i, pair);
    }
    PyObject *freeo = store(self->free, self->W);
    if (!freeo) {
        Py_DECREF(dirs);
        return NULL;
    }
    return Py_BuildValue("O(NN)", (PyObject *)Py_TYPE(self), dirs, freeo);
}

static PyMethodDef stepper_methods[] = {
    {"__reduce__", (PyCFunction)stepper_reduce, METH_NOARGS,
     "How a Stepper pickles: Stepper(directions, free) made again."},
    {"walk", (PyCFunction)stepper_walk, METH_VARARGS,
     "walk(start, seen, short, total) -> [short squares, long squares, last layer]: a walk\n"
     "of up to `total` steps from `start` through squares not in `seen`; the squares\n"
     "after 0..short steps, after short+1..total, and after exactly total."},
    {"walks", (PyCFunction)stepper_walks, METH_VARARGS,
     "walks(seen, short, total, longer) -> Walks: unseen walks through the squares not in\n"
     "`seen`, kept by start; see Walks.parts."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject StepperType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fogofwar.core._bitsets.Stepper",
    .tp_basicsize = sizeof(Stepper),
    .tp_dealloc = (destructor)stepper_dealloc,
    .tp_call = (ternaryfunc)stepper_call,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Stepper(directions, free): the squares one step from a frontier, as\n"
              "OR over (offset, squares) of (frontier & squares) shifted by offset (left when\n"
              "positive), AND free.",
    .tp_methods = stepper_methods,
    .tp_new = stepper_new,
};

static PyMethodDef methods[] = {
    {"narrow", narrow, METH_VARARGS,
     "narrow(parts, short_bits, long_bits) -> parts: each part's short squares AND\n"
     "short_bits and long squares AND long_bits (a negative mask ~m: every square but m's),\n"
     "empty parts left out; unchanged parts are the same objects, and the same tuple when\n"
     "nothing changed (bitsets.narrow_py)."},
    {"narrowed", narrowed, METH_VARARGS,
     "narrowed(groups, short_bits, long_bits) -> (groups, squares, kept): every group's\n"
     "parts narrowed, groups whose parts come out equal joined, groups left empty out;\n"
     "every square, and whether no group came out empty (bitsets.narrowed_py, in C)."},
    {"merged", merged, METH_O,
     "merged(pairs) -> (groups, squares, kept): for each (parts, keys, bits), its one part's\n"
     "short and long squares as short, AND bits; groups whose parts come out equal joined,\n"
     "empty ones out; every square, and whether none came out empty (bitsets.merged_py)."},
    {"grouped", grouped, METH_VARARGS,
     "grouped(pairs, known) -> {parts: keys}: the (parts, keys) pairs in order, the keys of\n"
     "equal parts joined (`|`); a parts object that is a key of the dict `known` takes the\n"
     "hash stored there (bitsets.grouped_py, in C)."},
    {"hash_of", hash_of_py, METH_O,
     "hash_of(v) -> int: hash(v), as the group joins work it out (worked out here for\n"
     "exact tuples and non-negative ints where that was checked at load)."},
    {"squares", squares_of, METH_O,
     "squares(parts) -> int: the union of the parts' short and long squares."},
    {"played", played, METH_VARARGS,
     "played(parts, ways, targets) -> ((open, hidden), ...): a hidden move's parts, for each\n"
     "target (a tuple of way indices) the canonical union of its ways' rectangles\n"
     "(fogofwar.core.bitsets.played_py, in C)."},
    {"keys_after", keys_after, METH_O,
     "keys_after(made) -> {(short, long): keys}: the keys after a move by their squares,\n"
     "from (short, long, keys) triples, a key in several getting the OR of their squares\n"
     "(fogofwar.core.bitsets.keys_after_py, in C)."},
    {"ored", ored, METH_VARARGS,
     "ored(groups, ways, full) -> (groups, squares, lost): a plain unseen move, each\n"
     "group's ways walked and ORed per target, the keys joined (fogofwar.core.bitsets.\n"
     "ored_py, in C)."},
    {"canon", canon, METH_O,
     "canon(rects) -> parts: the canonical parts of a union of (short, long, assignments)\n"
     "rectangles (fogofwar.core.bitsets.canon_py, in C)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_bitsets",
    .m_doc = "Bitset kernels in C (fogofwar.core.bitsets holds the reference forms).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__bitsets(void)
{
    if (PyType_Ready(&StepperType) < 0 || PyType_Ready(&WalksType) < 0 ||
        PyType_Ready(&SplitterType) < 0)
        return NULL;
    if (check_fast_hash() < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    if (PyModule_AddIntConstant(m, "KNOWN_HASH", KNOWN_HASH) < 0 ||
        PyModule_AddObjectRef(m, "Stepper", (PyObject *)&StepperType) < 0 ||
        PyModule_AddObjectRef(m, "Walks", (PyObject *)&WalksType) < 0 ||
        PyModule_AddObjectRef(m, "Splitter", (PyObject *)&SplitterType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
