// A door's request pipeline: steps in a fixed order around the matched route's handler, as
// userver's middlewares wrap its handlers. Each step sees the Exchange, and either answers
// itself (a refusal) or calls next and may amend the answer on its way back (rate headers).
//
// The gateway composes one Pipeline per door (gateway.cpp): the steps are written once
// (steps.h) and only their order and choice differ between /v1 and /console/api.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "auth/authenticator.h"
#include "console/console_api.h"
#include "dq/http/http_types.h"
#include "pipeline/router.h"

namespace dq::gateway {

// One request on its way through a pipeline, and what the steps learned about it.
struct Exchange {
  explicit Exchange(const http::HttpRequest& r) : request(r) {}
  Exchange(const http::HttpRequest& r, RouteMatch m) : request(r), route(std::move(m)) {}

  const http::HttpRequest& request;
  RouteMatch route;
  std::optional<Principal> principal;       // once authenticated (either door)
  std::optional<ConsolePrincipal> session;  // the console door's session, once checked
};

class Pipeline;

// The rest of the pipeline after a step.
class Next {
 public:
  Next(const Pipeline& pipeline, size_t index) : pipeline_(pipeline), index_(index) {}
  http::HttpResponse operator()(Exchange& x) const;

 private:
  const Pipeline& pipeline_;
  size_t index_;
};

// One stage. Handle() answers a refusal itself or returns next(x), possibly amended. Steps are
// immutable after construction and called from every HTTP thread at once.
class Step {
 public:
  virtual ~Step() = default;
  virtual http::HttpResponse Handle(Exchange& x, const Next& next) const = 0;
};

class Pipeline {
 public:
  // The handler at the end of the pipeline: the matched route's, in the gateway.
  using Terminal = std::function<http::HttpResponse(Exchange& x)>;

  explicit Pipeline(Terminal terminal) : terminal_(std::move(terminal)) {}

  Pipeline& Then(std::unique_ptr<Step> step) {
    steps_.push_back(std::move(step));
    return *this;
  }
  template <typename S, typename... Args>
  Pipeline& Then(Args&&... args) {
    return Then(std::make_unique<S>(std::forward<Args>(args)...));
  }

  http::HttpResponse Run(Exchange& x) const { return Next(*this, 0)(x); }

 private:
  friend class Next;
  std::vector<std::unique_ptr<Step>> steps_;
  Terminal terminal_;
};

inline http::HttpResponse Next::operator()(Exchange& x) const {
  if (index_ < pipeline_.steps_.size()) {
    return pipeline_.steps_[index_]->Handle(x, Next(pipeline_, index_ + 1));
  }
  return pipeline_.terminal_(x);
}

}  // namespace dq::gateway
