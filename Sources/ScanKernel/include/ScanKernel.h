#ifndef CONTACTSD_SCAN_KERNEL_H
#define CONTACTSD_SCAN_KERNEL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the search index keeps for one contact, in 24 bytes. Its text is textCount bytes at
 * textStart in the index's text buffer. Its sort key is keyCount bytes: the first bytes of its
 * text when keyInText (a name's key is usually its folded form, which the text starts with),
 * else at keyStart in the key buffer. The layout is C's, so the scan below and the Swift index
 * read the same array. */
typedef struct ScanSlot {
    int64_t rowid;
    uint32_t textStart;
    uint32_t textCount;
    uint32_t keyStart;
    uint16_t keyCount;
    bool keyInText;
    /* SCAN_FAVORITE and SCAN_COLLECTED (the Swift side reads them as properties). */
    uint8_t marks;
} ScanSlot;

enum { SCAN_FAVORITE = 1, SCAN_COLLECTED = 2 };

/* A 320-bit summary of a contact's text (scan_features): which bytes and which pairs of
 * adjacent bytes it holds. The index keeps them in an array of their own beside the slots,
 * so that the scan, which reads every one, reads 40 bytes a contact. */
typedef struct ScanFeatures {
    uint64_t bits[5];
} ScanFeatures;

/* The features of `length` bytes of text, or of a needle: one bit for each byte it holds
 * (a bit of its own for lower-case ASCII letters, digits and the punctuation of addresses;
 * other bytes share bits) and one for each pair of adjacent bytes (a bit of its own for the
 * 64 most frequent pairs of letters; other pairs share bits by a hash). Text that holds a
 * needle holds all of the needle's features, so a contact lacking one of them cannot match. */
void scan_features(const unsigned char *text, size_t length, ScanFeatures *features);

/* Whether a needle's features are all bits of its own (one such byte, or one such pair of
 * letters): text whose features hold the needle's then holds the needle. */
bool scan_needle_is_exact(const unsigned char *needle, size_t length);

/* Sets marks[i] to 1 for each of the `count` slots whose text holds the needle (`length`
 * bytes, at least one) and leaves the other marks alone; features[i] summarizes slot i. `text` is the whole text buffer
 * (`textLength` bytes) the slots point into. A slot whose features lack some of the needle's
 * is passed over; in the others the needle is looked for from its rarest pair of adjacent
 * bytes, at `pair` (0 for a needle of one byte), and its last byte, sixteen positions at a
 * time (SSE2) or thirty-two (AVX2). A needle whose features are exact (scan_needle_is_exact) needs no look at the
 * text at all. When the slots' texts follow one another (`contiguous`) and most of the first
 * thousand slots let the needle through, the stretch is searched in one pass instead. */
void scan_mark(const unsigned char *text, size_t textLength, const ScanSlot *slots, const ScanFeatures *features, size_t count,
               const unsigned char *needle, size_t length, size_t pair, bool contiguous, unsigned char *marks);

/* Whether the scan takes thirty-two positions a step (AVX2, where the processor has it) rather
 * than sixteen. scan_allow_avx2(false) keeps it to SSE2, for tests of that path; it is not
 * safe while another thread scans. */
bool scan_uses_avx2(void);
void scan_allow_avx2(bool allowed);

#endif
