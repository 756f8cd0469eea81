// Download names: an ASCII filename for old clients, the real one in filename*, and nothing
// that could hide or reverse what the user sees.
#include "dq/http/content_disposition.h"

#include <gtest/gtest.h>

namespace dq::http {
namespace {

TEST(ContentDispositionTest, AsciiNamesPassAndQuotesAreReplaced) {
  EXPECT_EQ(AttachmentDisposition("cleaned-products.csv"),
            "attachment; filename=\"cleaned-products.csv\"; "
            "filename*=UTF-8''cleaned-products.csv");
  EXPECT_EQ(AttachmentDisposition("a \"b\"\\c.csv"),
            "attachment; filename=\"a _b__c.csv\"; filename*=UTF-8''a%20%22b%22%5Cc.csv");
}

TEST(ContentDispositionTest, NonAsciiKeepsItsNameInFilenameStar) {
  EXPECT_EQ(AttachmentDisposition("Größe.csv"),
            "attachment; filename=\"Gr__e.csv\"; filename*=UTF-8''Gr%C3%B6%C3%9Fe.csv");
}

TEST(ContentDispositionTest, ControlAndBidiCharactersAreRemoved) {
  // "evil<RLO>vsc.exe" shows as "evilexe.csv" in a right-to-left override.
  EXPECT_EQ(AttachmentDisposition("evil\u202Evsc.exe"),
            "attachment; filename=\"evilvsc.exe\"; filename*=UTF-8''evilvsc.exe");
  EXPECT_EQ(AttachmentDisposition(std::string("a\x7f" "b\r\nc\x01\xc2\x85" "d\u200F\u2066e.csv")),
            "attachment; filename=\"abcde.csv\"; filename*=UTF-8''abcde.csv");
  // Bytes that are not UTF-8 go too; nothing left is "download".
  EXPECT_EQ(AttachmentDisposition(std::string("\xff\xfe\x80")),
            "attachment; filename=\"download\"; filename*=UTF-8''download");
}

}  // namespace
}  // namespace dq::http
