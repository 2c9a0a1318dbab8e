/* answer.h - is a student's reply the same as an accepted answer?
 *
 * Tolerant where people write one thing several ways, strict where the
 * meaning changes:
 *   - case, spacing, a final full stop, quotes and a leading "the"/"a" do not count;
 *   - numbers are numbers: "3,321,858,913", "1e6", "64Mi", "six", "thirty-two",
 *     "1/2", "0.5", "4,8" (a decimal comma) and "50%" (a percentage is also accepted as the bare
 *     number: "50" for "50%", and "100%" for "1");
 *   - a unit after a number may be left out ("313" for "313 blocks"), but a
 *     different unit is wrong ("313 threads" is not "313 blocks"); plurals and a
 *     few spellings ("ms", "milliseconds") are the same unit.
 * Every text is read through fixed buffers with one bounded writer, so a
 * reply of any length is cut, never written past its buffer. */
#ifndef GPULAB_ANSWER_H
#define GPULAB_ANSWER_H

#include <stddef.h>

/* 1 when given says what accepted says, else 0. */
int answer_match(const char *given, const char *accepted);

/* The choice a reply names: a letter ("b", "(b)", "b)", "B."), the text of
 * one of the choices, or its words put otherwise (a part of one choice
 * alone, or words, stems alike, that only that choice has); 0-based, or -1
 * when it names none of the n or more than one. */
int answer_choice(const char *given, const char *const *choices, int n);

/* The normal form answer_match compares when neither text is a number:
 * lower case, inner spaces collapsed, quotes, a leading article and final
 * dots gone. Writes at most len bytes, always terminated (len > 0). */
void answer_normalize(const char *in, char *out, size_t len);

#endif
