// The store's raw SQL for the tests (and the store benchmark's SQLite bound):
// Store::handle() and Store::exec() are private so that every statement of
// alea itself lives in store.cpp; a test that checks a row directly, breaks a
// store on purpose or reads a pragma goes through this one friend. Include
// directory: test/unit/support (store_tests, campaign_tests, measure_tests,
// alea_bench_store).
#pragma once

#include "alea/store/store.hpp"

#include <cstdint>
#include <string_view>

namespace alea::runner {

struct StoreTestAccess {
  static sqlite3 *handle(Store &store) { return store.handle(); }
  static Status exec(Store &store, std::string_view sql) { return store.exec(sql); }
  // The first column of the first row of `sql` as an integer; -1 without a row.
  static std::int64_t scalar(Store &store, std::string_view sql) {
    Statement st(store.handle(), sql);
    return st.step() ? st.columnInt(0) : -1;
  }
};

} // namespace alea::runner
