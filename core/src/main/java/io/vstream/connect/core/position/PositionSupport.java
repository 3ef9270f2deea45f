package io.vstream.connect.core.position;

/** Checks shared by both GTID flavors: comparing or mixing positions is only defined within one flavor. */
final class PositionSupport {

    private PositionSupport() {
    }

    /** Throws if {@code other} is not of {@code self}'s flavor; the message shows both positions. */
    static void requireSameFlavor(GtidPosition self, GtidPosition other) {
        if (self.flavor() != other.flavor()) {
            throw new IllegalArgumentException("Cannot compare GTID positions of different flavors: " + self.format()
                    + " is " + self.flavor().vitessName() + " but " + other.format() + " is "
                    + other.flavor().vitessName() + "; all positions of one shard must come from the same kind of server");
        }
    }
}
