/**
 * The outcome of comparing two tables, or a table with a write load's model:
 * {@link io.vstream.connect.local.compare.ComparisonResult} with its
 * {@link io.vstream.connect.local.compare.RowDifference}s. The write load's verifier
 * ({@link io.vstream.connect.local.load.WriteLoad#verifyShard}) makes one; test-support's {@code TableComparator} makes
 * one from two tables.
 */
package io.vstream.connect.local.compare;
