#!/bin/bash
# A malformed lesson file is refused with its line number.
GPULAB=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
expect() { # expect NAME LINE WORDS  (file content on stdin)
  cat >"$tmp/$1.md"
  out=$("$GPULAB" --no-color -c "lesson $tmp/$1.md" 2>&1); rc=$?
  if [ $rc -ne 0 ] && grep -q "$1.md:$2: .*$3" <<<"$out"; then echo "ok   $1"
  else echo "FAIL $1: expected line $2 ($3), got rc $rc:"; echo "$out"; fails=$((fails+1)); fi
}
printf -- '---\ntitle: x\nbogus: 1\n---\n## a\ntext\n' | expect badkey 3 "unknown front matter key"
printf -- '---\ntitle: x\n## a\n' | expect unclosed 1 "never closed"
printf -- '---\ntitle: x\n---\n## a\n\n```gpulab\nuse reduce\nfrobnicate 3\n```\n' | expect badcmd 8 "unknown command"
printf -- '---\ntitle: x\n---\n## a\n\n```question\nanswer: 3\n```\n' | expect noquestion 6 "no question"
printf -- '---\ntitle: x\n---\n## a\n\n```lecture\nsequential 1.17 ms\n```\n' | expect badlecture 7 "LABEL: VALUE"
printf -- '---\ntitle: x\n---\n## a\n\n```gpulab\nrun\n' | expect openfence 6 "never closed"
printf -- '---\ntitle: x\n---\n## a\n\n```question\nWhy?\n```\n' | expect openquestion 6 "needs explain"
printf -- '---\ntitle: x\n---\n## a\n\n```question\nWhich?\nchoice: one\nchoice: two\nanswer: three\n```\n' | expect badchoice 6 "none of the choices"
printf -- '---\ntitle: x\n---\n## a\n\n```question\nWhich?\nchoice: one\nanswer: a\n```\n' | expect onechoice 6 "two choices"
printf -- 'just text\n' | expect notitle 1 "no title"
printf -- '# T\n\n## a\n```gpulab\nset n 4 # sim:\n```\n' | expect emptysim 5 "sim"
# The same error from lecture mode, and a good file is accepted.
"$GPULAB" --no-color --lecture "$tmp/badcmd.md" </dev/null >"$tmp/o" 2>&1
[ $? -ne 0 ] && grep -q "badcmd.md:8:" "$tmp/o" && echo "ok   lecture-error" || { echo "FAIL lecture-error"; fails=$((fails+1)); }
printf -- '---\ntitle: Fine\ntime: 1 min\n---\n## a\n\n```question\nWhat?\nanswer: 3,321,858,913\n```\n' >"$tmp/good.md"
out=$(XDG_STATE_HOME=$tmp/st "$GPULAB" --no-color -c "lesson $tmp/good.md; answer 3321858913; answer 12" 2>&1)
grep -q "right" <<<"$out" && grep -q "not quite" <<<"$out" && echo "ok   answers" || { echo "FAIL answers: $out"; fails=$((fails+1)); }
grep -qE '^good@[0-9a-f]{16} 1 1 1 1$' "$tmp/st/gpulab/progress" && echo "ok   progress" || { echo "FAIL progress"; cat "$tmp/st/gpulab/progress"; fails=$((fails+1)); }
# Tolerant answers, choices by letter, text or paraphrase; a wrong answer
# gets another try before the explanation gives the answer away.
printf -- '---\ntitle: Why\n---\n## a\n\n```question\nHow many blocks?\nanswer: 313 blocks\nexplain: round up.\n```\n\n```question\nWhy?\nchoice: slow memory\nchoice: packed warps\nanswer: b\nexplain: the lanes.\n```\n\n```question\nOpen?\nexplain: the model answer.\n```\n' >"$tmp/why.md"
out=$(XDG_STATE_HOME=$tmp/st2 "$GPULAB" --no-color -c "lesson $tmp/why.md; answer 313 threads; answer 313 threads; answer three hundred thirteen; answer a; answer a; answer bananas; answer the warps are packed; answer anything" 2>&1)
first=$(grep -m1 "not quite" <<<"$out")
grep -q "not quite. Try again (a second wrong answer shows why)" <<<"$first" && ! grep -q "round up" <<<"$first" \
  && grep -q "not quite. Why: round up." <<<"$out" && grep -q "right. round up." <<<"$out" \
  && grep -q "not quite. Why: the lanes." <<<"$out" && grep -q "right. the lanes." <<<"$out" \
  && grep -q "that names none of the choices (a, b)" <<<"$out" \
  && grep -q "compare yours with this: the model answer." <<<"$out" && grep -q "b) packed warps" <<<"$out" \
  && echo "ok   why" || { echo "FAIL why: $out"; fails=$((fails+1)); }
# A decimal comma: 4,8 is 4.8 (and not 48).
printf -- '---\ntitle: Comma\n---\n## a\n\n```question\nHow many ms?\nanswer: 4.8 ms\n```\n' >"$tmp/comma.md"
XDG_STATE_HOME=$tmp/st3 "$GPULAB" --no-color -c "lesson $tmp/comma.md; answer 48; answer 4,8" >"$tmp/c" 2>&1
grep -q "not quite" "$tmp/c" && grep -q "^right" "$tmp/c" && echo "ok   comma" || { echo "FAIL comma: $(cat "$tmp/c")"; fails=$((fails+1)); }
exit $((fails > 0))
