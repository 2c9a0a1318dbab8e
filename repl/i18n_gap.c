/* i18n_gap.c - the space between two phrases of a translated text, apart
 * from the catalogs (i18n.c), so that code that only formats text (and the
 * fuzz targets that test it) can use it without gettext. */
#include "repl/i18n.h"

#include <string.h>

/* Text that ends in full-width punctuation (Chinese "。", "：") carries its
 * own space; any other text is followed by one. */
const char *i18n_gap(const char *text)
{
    size_t n = text ? strlen(text) : 0;
    if (n == 0) return "";
    /* the last code point, when it is three bytes long: U+0800..U+FFFF */
    if (n >= 3 && ((unsigned char)text[n - 3] & 0xF0) == 0xE0) {
        unsigned cp = ((unsigned)(text[n - 3] & 0x0F) << 12) | ((unsigned)(text[n - 2] & 0x3F) << 6) |
                      (unsigned)(text[n - 1] & 0x3F);
        if ((cp >= 0x3000 && cp <= 0x303F) || (cp >= 0xFF00 && cp <= 0xFF60)) return "";
    }
    return " ";
}
