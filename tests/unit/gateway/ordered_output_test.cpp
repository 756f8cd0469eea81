// A connection's writes leave in order, straight to the socket when nothing waits in the
// library's queue, and only what the socket did not take is copied into that queue.
#include "dq/http/ordered_output.h"

#include <gtest/gtest.h>

#include "dq/testing/gateway_fakes.h"

namespace dq::http {
namespace {

using testing::FakeOutputSink;

TEST(OrderedOutputTest, AWriteTheSocketTakesWholeIsNeverQueued) {
  FakeOutputSink sink;
  OrderedOutput out;
  out.Write(sink, "HEAD\r\n\r\n", "body");
  EXPECT_EQ(sink.wire, "HEAD\r\n\r\nbody");
  EXPECT_TRUE(sink.queue.empty());
  EXPECT_EQ(out.waiting(), 0u);
}

TEST(OrderedOutputTest, WhatTheSocketDoesNotTakeIsQueuedFromWhereItStopped) {
  for (size_t accept : {size_t{0}, size_t{3}, size_t{8}, size_t{10}}) {
    SCOPED_TRACE(accept);
    FakeOutputSink sink;
    sink.accept = accept;
    OrderedOutput out;
    out.Write(sink, "HEAD\r\n\r\n", "body");  // 8 + 4 bytes
    ASSERT_EQ(sink.queue.size(), 1u);
    EXPECT_EQ(sink.queue[0].first, std::string("HEAD\r\n\r\nbody").substr(accept));
    EXPECT_EQ(out.waiting(), 1u);
    sink.Drain();
    EXPECT_EQ(sink.wire, "HEAD\r\n\r\nbody");
    EXPECT_EQ(out.waiting(), 0u);
  }
}

TEST(OrderedOutputTest, WhileAnythingWaitsLaterWritesQueueBehindIt) {
  FakeOutputSink sink;
  sink.accept = 5;
  OrderedOutput out;
  out.Write(sink, "first answer;");
  sink.accept = 1000;  // the socket has room again, but the first answer's rest still waits
  out.Write(sink, "second;");
  out.Write(sink, "third;");
  EXPECT_EQ(sink.direct_sends, 1);
  EXPECT_EQ(out.waiting(), 3u);
  sink.Drain();
  EXPECT_EQ(sink.wire, "first answer;second;third;");
  // Once the queue is empty, writes go straight to the socket again.
  out.Write(sink, "fourth;");
  EXPECT_EQ(sink.direct_sends, 2);
  EXPECT_TRUE(sink.queue.empty());
  EXPECT_EQ(sink.wire, "first answer;second;third;fourth;");
}

TEST(OrderedOutputTest, AfterLosingTrackEverythingIsQueued) {
  FakeOutputSink sink;
  OrderedOutput out;
  out.LoseTrack();  // e.g. the library answered a request itself
  out.Write(sink, "a", "b");
  sink.Drain();
  out.Write(sink, "c");
  EXPECT_EQ(sink.direct_sends, 0);
  EXPECT_FALSE(out.tracking());
  sink.Drain();
  EXPECT_EQ(sink.wire, "abc");
}

TEST(OrderedOutputTest, AFailedConnectionLeavesTheWriteToTheQueue) {
  FakeOutputSink sink;
  sink.failed = true;
  OrderedOutput out;
  out.Write(sink, "head", "body");
  ASSERT_EQ(sink.queue.size(), 1u);
  EXPECT_EQ(sink.queue[0].first, "headbody");
}

TEST(OrderedOutputTest, ACompletionAfterTheConnectionIsGoneIsHarmless) {
  FakeOutputSink sink;
  sink.accept = 0;
  {
    OrderedOutput out;
    out.Write(sink, "late");
  }
  sink.Drain();  // runs the completion of a write whose OrderedOutput no longer exists
  EXPECT_EQ(sink.wire, "late");
}

}  // namespace
}  // namespace dq::http
