/**
 * Helpers shared by the vstream transforms and predicates: reading the source connector's record format
 * ({@link io.vstream.connect.transforms.util.VStreamRecords}), enum-valued settings
 * ({@link io.vstream.connect.transforms.util.EnumChoice}) and derived-schema building
 * ({@link io.vstream.connect.transforms.util.Schemas}).
 */
package io.vstream.connect.transforms.util;
