/**
 * The online-DDL workflow's first step: turning the operator's ALTER TABLE into a ghost table on each shard and the
 * plan the applier writes by. {@link io.vstream.connect.coordinator.ddl.AlterAnalyzer} does it the gh-ost way (the
 * server parses the ALTER on an empty copy of the table, then the two tables are compared) and refuses what an online
 * migration must not run, naming the fix; {@link io.vstream.connect.coordinator.ddl.AlterPlan} is the result, with
 * one JSON form for the coordinator's state. The scanning of the statement, the naming of side tables, the reading of
 * information_schema and the comparison each have their own class, so that all but the reading are tested without a
 * server.
 */
package io.vstream.connect.coordinator.ddl;
