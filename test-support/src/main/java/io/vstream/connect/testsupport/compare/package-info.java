/**
 * Source-versus-target checks by chunked checksums:
 * {@link io.vstream.connect.testsupport.compare.TableComparator} compares two tables (other server,
 * database, or schema through a {@link io.vstream.connect.testsupport.compare.ColumnMapping}) and diffs the
 * chunks that differ. Correctness is proven by comparing tables, never by trusting logs.
 */
package io.vstream.connect.testsupport.compare;
