// listing::Scan, the one pass over a title or description for every fact the channel packs ask
// (validator/src/engine/listing_scan.cpp): each fact on texts that tell a right answer from a
// wrong one, and the same answers as the one-fact functions (ScanEach) on many texts.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "listing_text.h"

namespace dq::validator::listing {
namespace {

constexpr uint8_t kAllFacts = kCapitalsFact | kPromotionalFact | kGimmicksFact | kRepeatedFact |
                              kUsedWordFact | kHtmlFact | kLinkFact;
constexpr uint8_t kAllGimmicks =
    kExclamation | kQuestionMark | kAsterisk | kRepeatedSymbol | kDecorative;

ScanRequest Title(uint8_t facts = kAllFacts, uint8_t gimmicks = kAllGimmicks) {
  return ScanRequest{facts, true, gimmicks};
}
ScanRequest Description(uint8_t facts = kAllFacts) { return ScanRequest{facts, false, 0}; }

// The same bytes of the same text (a view into it), or both empty.
::testing::AssertionResult SameView(std::string_view text, std::string_view a,
                                    std::string_view b) {
  if (a.empty() && b.empty()) return ::testing::AssertionSuccess();
  if (a.data() == b.data() && a.size() == b.size()) return ::testing::AssertionSuccess();
  auto where = [&](std::string_view v) {
    if (v.empty()) return std::string("empty");
    std::string out = "'";
    out.append(v);
    out.append("' at ");
    out.append(std::to_string(v.data() - text.data()));
    return out;
  };
  return ::testing::AssertionFailure() << where(a) << " against " << where(b);
}

void ExpectSameFacts(std::string_view text, const ScanRequest& r) {
  const TextFacts fused = Scan(text, r);
  const TextFacts each = ScanEach(text, r);
  SCOPED_TRACE("text: '" + std::string(text) + "' facts " + std::to_string(r.facts) +
               (r.in_title ? " title" : " description") + " gimmicks " +
               std::to_string(r.wanted_gimmicks));
  EXPECT_EQ(fused.capitals, each.capitals);
  EXPECT_TRUE(SameView(text, fused.promotional, each.promotional));
  EXPECT_EQ(fused.gimmicks.kinds, each.gimmicks.kinds);
  EXPECT_TRUE(SameView(text, fused.gimmicks.first, each.gimmicks.first));
  EXPECT_TRUE(SameView(text, fused.repeated_word, each.repeated_word));
  EXPECT_TRUE(SameView(text, fused.used_word, each.used_word));
  EXPECT_TRUE(SameView(text, fused.html.first_tag, each.html.first_tag));
  EXPECT_TRUE(SameView(text, fused.html.first_entity, each.html.first_entity));
  EXPECT_TRUE(SameView(text, fused.html.unsafe, each.html.unsafe));
  EXPECT_TRUE(SameView(text, fused.link, each.link));
}

TEST(ListingScan, Capitals) {
  EXPECT_TRUE(Scan("BEST MUGS EVER", Title()).capitals);
  EXPECT_FALSE(Scan("BEST MUGS Ever", Title()).capitals);   // 9 of 12 letters: 75%
  EXPECT_FALSE(Scan("BEST Mugs EVR", Title()).capitals);    // one shouting word
  EXPECT_FALSE(Scan("NIKE AIR MAX 90", Title()).capitals);  // AIR, MAX: 3 letters
  EXPECT_TRUE(Scan("MUGS2GO WARM", Title()).capitals);       // a digit inside a word
  EXPECT_FALSE(Scan("MUGS WARM cozy soft and nice", Title()).capitals);  // under 80%
  EXPECT_TRUE(Scan("MUGS WARM COZY cup", Title()).capitals);    // 12 of 15 letters: 80%
  EXPECT_FALSE(Scan("MUGS WARM COZY mugs", Title()).capitals);   // 12 of 16: 75%
  EXPECT_FALSE(Scan("MUGS WARM COZY mugs", Title(0)).capitals);  // not asked
}

TEST(ListingScan, PromotionalPhrases) {
  EXPECT_EQ(Scan("Mug - FREE Shipping today", Title()).promotional, "FREE Shipping");
  EXPECT_EQ(Scan("Mug, 20% off", Title()).promotional, "% off");
  EXPECT_EQ(Scan("Mug $19.99", Title()).promotional, "$19.99");
  EXPECT_EQ(Scan("Mug $19.99", Description()).promotional, "");  // prices: titles only
  EXPECT_EQ(Scan("Sale mug", Title()).promotional, "Sale");
  EXPECT_EQ(Scan("Sale mug", Description()).promotional, "");  // "sale": titles only
  EXPECT_EQ(Scan("wholesale resale", Title()).promotional, "");  // inside words
  EXPECT_EQ(Scan("Saleable mug", Title()).promotional, "");      // a longer word
  EXPECT_EQ(Scan("Clearance: buy now", Title()).promotional, "Clearance");  // the first
}

TEST(ListingScan, Gimmicks) {
  const TextFacts f = Scan("Mug? Great!! *new*", Title(kGimmicksFact, kExclamation));
  EXPECT_EQ(f.gimmicks.kinds, kQuestionMark | kExclamation | kRepeatedSymbol | kAsterisk);
  EXPECT_EQ(f.gimmicks.first, "!");  // the first of the kinds wanted, not the '?'
  EXPECT_EQ(Scan("Mug ~~ deal", Title(kGimmicksFact, kRepeatedSymbol)).gimmicks.first, "~~");
  EXPECT_EQ(Scan("Mug - deal.", Title()).gimmicks.kinds, 0);
  EXPECT_EQ(Scan("Mug \xE2\x98\x85", Title()).gimmicks.first, "\xE2\x98\x85");  // ★
}

TEST(ListingScan, RepeatedWords) {
  EXPECT_EQ(Scan("Shoes shoes running", Title()).repeated_word, "Shoes");
  EXPECT_EQ(Scan("Red Mug, Blue Mug, Green Mug", Title()).repeated_word, "Mug");
  EXPECT_EQ(Scan("Salt and Pepper and Oil and Vinegar", Title()).repeated_word, "");
  EXPECT_EQ(Scan("Pack 2 Pack", Title()).repeated_word, "");  // a digit between
  // A mark that separates a title's parts: the name, then an attribute (a real feed's title).
  EXPECT_EQ(Scan("Notebook \"Love in every color\" - Color Turquoise", Title()).repeated_word, "");
  EXPECT_EQ(Scan("Acme | acme mug", Title()).repeated_word, "");
  EXPECT_EQ(Scan("Shoes, shoes, running", Title()).repeated_word, "Shoes");
  EXPECT_EQ(Scan("Mug4you Mug4me mug", Title()).repeated_word, "Mug");  // digits end words
}

TEST(ListingScan, UsedWords) {
  EXPECT_EQ(Scan("Renewed phone, refurbished", Title()).used_word, "refurbished");  // list order
  EXPECT_EQ(Scan("Phone (Pre-Owned)", Title()).used_word, "Pre-Owned");
  EXPECT_EQ(Scan("Unrefurbished phone", Title()).used_word, "");  // inside a word
  EXPECT_EQ(Scan("Refurbishedness", Title()).used_word, "");      // a longer word
  EXPECT_EQ(Scan("2renewed", Title()).used_word, "renewed");      // after a digit
}

TEST(ListingScan, HtmlAndLinks) {
  const TextFacts f = Scan("Fish &amp; chips <p>x</p> <a href='/y'>y</a>", Description());
  EXPECT_EQ(f.html.first_tag, "<p>");
  EXPECT_EQ(f.html.first_entity, "&amp;");
  EXPECT_EQ(f.html.unsafe, "<a href='/y'>");
  EXPECT_EQ(Scan("I <3 mugs & 2 < 3", Description()).html.first_tag, "");
  EXPECT_EQ(Scan("See www.acme.com now", Description()).link, "www.acme.com");
  EXPECT_EQ(Scan("at HTTPS://acme.com/x.", Description()).link, "HTTPS://acme.com/x.");
  EXPECT_EQ(Scan("awww.nope and http:// alone", Description()).link, "");
}

TEST(ListingScan, OnlyWhatIsAskedFor) {
  const std::string_view text = "FREE SHIPPING!! Mug mug <b>www.x.com</b> refurbished";
  const TextFacts none = Scan(text, Title(0));
  EXPECT_FALSE(none.capitals);
  EXPECT_EQ(none.promotional, "");
  EXPECT_EQ(none.gimmicks.kinds, 0);
  const TextFacts some = Scan(text, Title(kPromotionalFact | kLinkFact));
  EXPECT_EQ(some.promotional, "FREE SHIPPING");
  EXPECT_EQ(some.link, "www.x.com");
  EXPECT_EQ(some.repeated_word, "");
  EXPECT_EQ(some.used_word, "");
  EXPECT_EQ(some.html.first_tag, "");
}

// Texts made of the pieces every fact looks at, in random order, joined by random separators:
// the fused scan answers as the one-fact functions do, for every request.
TEST(ListingScan, AnswersAsEachFunctionDoes) {
  static const char* kPieces[] = {
      "Mug", "MUG", "mug", "SHOES", "Shoes", "shoes", "and", "the", "free", "FREE", "shipping",
      "Free Shipping", "sale", "Sale", "resale", "on sale", "% off", "20%", "off", "$19.99", "$",
      "$$", "!!", "!", "?", "*", "~~", "##", "__", "<p>", "</p>", "<a href=x>", "<script>", "<",
      ">", "&amp;", "&#39;", "&", "&x", "www.acme.com", "www.", "http://a.b", "https://",
      "://", "refurbished", "Renewed", "pre-owned", "second-hand", "secondhand", "2", "256GB",
      "S23", "x4", "Best Seller", "bestseller", "cheapest", "buy now", "order", "now", "hot",
      "deal", "limited", "time", "discount", ".", ",", "-", "/", ":",
      // the bytes next to the letters' ranges, and words longer than eight bytes (read eight
      // at a time)
      "@", "[", "`", "{", "Z", "a", "z", "A", "ZzAa", "LONGWORDWITHCAPS", "longerthaneight",
      "MugMugMugMugMug", "\x7f", "\x01", "Water2Bottle",
      // past ASCII: read in the one pass; a sequence that is not well-formed sends the text to
      // the one-fact functions
      "\xC3\x89T\xC3\x89", "caf\xC3\xA9", "\xE2\x98\x85", "\xE2\x82\xAC" "5", "\xC2\xA3" "9",
      "\xD0\x9C\xD0\x98\xD0\xA0", "\xC3", "\xE2\x82", "\xC1", "\xF0\x9F\x98\x80",
      "K\xC3\xBC" "che", "GR\xC3\x96\xC3\x9F" "E", "\xC3\x9C" "BER", "\xE2\x80\x93",
      "\xE2\x84\xA2", "\xC3\x97", "\xC2\xA0", "\xCE\x91\xCE\x92\xCE\x93\xCE\x94",
      "\x80", "\xFF", "\xC3\xA9\xA9", "caf\xC3\xA9" "caf\xC3\xA9", "\xC2\xA3" "x",
      // not well-formed though each continuation byte is one: an overlong '!' and '$' before a
      // digit, a surrogate (review44: the scan read them as characters)
      "Mug \xC0\xA1", "\xC0\xA4" "5", "\xED\xA0\x80"};
  static const char* kSeparators[] = {" ", " ", " ", "", "  ", ", ", " - ", "/", "\t"};
  std::mt19937 rng(32);
  const std::vector<ScanRequest> requests = {
      Title(),
      Description(),
      Title(kAllFacts, kExclamation | kRepeatedSymbol | kDecorative),
      Title(kAllFacts, kQuestionMark | kAsterisk),
      Title(kGimmicksFact | kUsedWordFact, kDecorative),
      Description(kHtmlFact | kLinkFact),
      Description(kCapitalsFact | kPromotionalFact),
  };
  size_t non_ascii = 0;
  for (int t = 0; t < 20000; ++t) {
    std::string text;
    const size_t pieces = rng() % 16;
    // Three texts in four only from the ASCII pieces, the fourth from any.
    const size_t choices = (t % 4 == 0) ? std::size(kPieces) : std::size(kPieces) - 26;
    for (size_t k = 0; k < pieces; ++k) {
      if (k > 0) text += kSeparators[rng() % std::size(kSeparators)];
      text += kPieces[rng() % choices];
    }
    for (char c : text) {
      if (static_cast<unsigned char>(c) >= 0x80) {
        ++non_ascii;
        break;
      }
    }
    for (const ScanRequest& r : requests) ExpectSameFacts(text, r);
    if (HasFailure()) return;
  }
  EXPECT_GT(non_ascii, 100u);  // both paths were taken
}

TEST(ListingUrl, SplitUrlFindsEachPart) {
  const UrlParts a = SplitUrl("https://user@cdn.acme.com:8443/img/No_Image.PNG?w=400#top");
  EXPECT_EQ(a.host, "cdn.acme.com");
  EXPECT_EQ(a.segment, "No_Image.PNG");
  EXPECT_EQ(a.file, "No_Image.PNG");
  const UrlParts b = SplitUrl("https://placeholder.com?x=1");  // no path
  EXPECT_EQ(b.host, "placeholder.com");
  EXPECT_EQ(b.segment, "placeholder.com");  // as PlaceholderImageName reads it
  EXPECT_EQ(b.file, "");                    // as FileTypeOf does
  const UrlParts c = SplitUrl("/img/x.jpg?u=http://a.b/c");  // "://" only in the query
  EXPECT_EQ(c.host, "a.b");                                   // HostOf reads it there
  EXPECT_EQ(c.file, "x.jpg");                                 // FileTypeOf does not
  EXPECT_EQ(SplitUrl("http://[::1]:80/x").host, "[::1]");
}

// URLs made of schemes, authorities, paths and queries of every kind: SplitUrl's parts give what
// HostOf, FileTypeOf and PlaceholderImageName give.
TEST(ListingUrl, SplitUrlReadsAsEachFunctionDoes) {
  static const char* kSchemes[] = {"https://", "http://", "HTTP://", "", "ftp://", "://"};
  static const char* kAuthorities[] = {"a.com",     "user@b.com:8080", "[::1]:8080", "[::1",
                                       "localhost", "192.168.0.1",     "cdn.example.com",
                                       "",          "x.test.",         "a@b@c.com"};
  static const char* kPaths[] = {"",           "/",         "/img",          "/img/",
                                 "/1.jpg",     "/No_Image.png", "/placeholder.jpg",
                                 "/x.JPG",     "/v1.2",     "/GetImage.ashx", "/a.b/c",
                                 "/p/mug.html", "/no-photo", "/image-coming-soon.webp",
                                 "/x.svg",     "/.jpg",     "/a//b.gif",     "/x.jpeg5"};
  static const char* kQueries[] = {"",           "?w=1",       "?u=http://x/y.png", "#frag",
                                   "?a/b.png",   "#x?y/z.gif", "?",                 "#"};
  size_t checked = 0;
  for (const char* scheme : kSchemes) {
    for (const char* authority : kAuthorities) {
      for (const char* path : kPaths) {
        for (const char* query : kQueries) {
          const std::string url = std::string(scheme) + authority + path + query;
          const std::string_view v = url;
          const UrlParts parts = SplitUrl(v);
          SCOPED_TRACE(url);
          EXPECT_TRUE(SameView(v, parts.host, HostOf(v)));
          const FileType fused = FileTypeOfSegment(parts.file), each = FileTypeOf(v);
          EXPECT_EQ(fused.kind, each.kind);
          EXPECT_TRUE(SameView(v, fused.extension, each.extension));
          EXPECT_EQ(PlaceholderImageSegment(parts.segment), PlaceholderImageName(v));
          ++checked;
          if (HasFailure()) return;
        }
      }
    }
  }
  EXPECT_EQ(checked, 6u * 10 * 18 * 8);
}

}  // namespace
}  // namespace dq::validator::listing
