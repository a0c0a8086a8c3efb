set -eu
missing=0
while IFS= read -r part; do
  [ -n "$part" ] || continue
  if [ -f "$SKILL_ARG_INPUT/$part" ]; then echo "ok $part"; else echo "missing $part"; missing=$((missing+1)); fi
done < "$SKILL_DIR/required-parts.txt"
words=$(sed -e 's/<[^>]*>/ /g' "$SKILL_ARG_INPUT/word/document.xml" | wc -w)
echo "words $words"
exit "$missing"
