/**
 * A write load with a model of what was acknowledged: {@link io.vstream.connect.local.load.WriteLoad}
 * runs seeded inserts, updates and deletes on one server or on shards routed by key
 * ({@link io.vstream.connect.local.load.Target}; a table may be placed by another column, see
 * {@link io.vstream.connect.local.load.LoadTable#routedBy}), and keeps the expected rows and the committed
 * transactions with their GTIDs, so a scenario test, a benchmark run or the quickstart can prove that nothing
 * acknowledged was lost and that a stream kept commit order. Commits with an unknown outcome are never claimed either
 * way. No test library: the quickstart runs it; a test asserts on what it returns
 * ({@link io.vstream.connect.local.compare.ComparisonResult}, {@link io.vstream.connect.local.load.LoadStats}).
 */
package io.vstream.connect.local.load;
