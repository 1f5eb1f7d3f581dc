package io.clrheap.golden.architecture;

import java.util.List;

/** How a long source file says why it is long: a line of its header comment that starts with "Long because" (after an optional {@code <p>}). */
final class LongFiles {

    private LongFiles() {
    }

    /** Whether the comment before the file's first type declaration has a line starting {@code Long because}. */
    static boolean explainsItsLength(List<String> lines) {
        for (String line : lines) {
            String text = line.strip();
            if (text.matches("(public |final |abstract |sealed )*(class|interface|record|enum) .*")
                    || text.matches("(public )?(final )?(class|interface|record|enum) .*")) {
                return false;
            }
            if (text.startsWith("*") && text.substring(1).strip().replaceFirst("^<p>", "").startsWith("Long because")) {
                return true;
            }
        }
        return false;
    }
}
