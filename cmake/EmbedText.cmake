# cmake -DIN=file -DOUT=file.cpp -DSYMBOL=name -P EmbedText.cmake
# Writes a C++ source defining `extern const std::string_view SYMBOL` holding the file's bytes,
# as a series of raw string literals (no literal longer than 16 KiB). The input must not contain
# the delimiter )dq".
file(READ "${IN}" text)
string(LENGTH "${text}" size)
set(out "// Generated from ${IN} by cmake/EmbedText.cmake; do not edit.\n#include <string_view>\n")
string(APPEND out "extern const std::string_view ${SYMBOL};\nconst std::string_view ${SYMBOL} =\n")
set(pos 0)
while(pos LESS size)
  string(SUBSTRING "${text}" ${pos} 16384 piece)
  string(APPEND out "R\"dq(${piece})dq\"\n")
  math(EXPR pos "${pos} + 16384")
endwhile()
string(APPEND out "\"\";\n")
file(WRITE "${OUT}.tmp" "${out}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
