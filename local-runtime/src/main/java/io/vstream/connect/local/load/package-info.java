/**
 * A write load with a model of what was acknowledged: {@link io.vstream.connect.local.load.WriteLoad}
 * runs seeded inserts, updates and deletes on one server or on shards routed by key
 * ({@link io.vstream.connect.local.load.Target}), and keeps the expected rows and the committed
 * transactions with their GTIDs, so a scenario test can prove that nothing acknowledged was lost and that a
 * stream kept commit order. Commits with an unknown outcome are never claimed either way.
 */
package io.vstream.connect.local.load;
