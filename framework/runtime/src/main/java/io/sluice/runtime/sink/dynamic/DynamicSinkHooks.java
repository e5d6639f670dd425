package io.sluice.runtime.sink.dynamic;

import java.io.Serializable;

/**
 * Where a dynamic sink's operators call out: the table updater before it updates a table, a
 * writer subtask when it closes an idle writer. A sink has {@link #NONE}; the tests fail the
 * updater or watch the writers through their own hooks (the runtime's test-jar), handed to the
 * builder the package-private way. They travel in the job graph with the operators.
 */
public interface DynamicSinkHooks extends Serializable {

    /** Nothing happens: what every sink outside the tests has. */
    DynamicSinkHooks NONE = new DynamicSinkHooks() {
        private static final long serialVersionUID = 1L;
    };

    /** Before the table updater updates a table. */
    default void onUpdate() {}

    /** After a writer subtask closed the idle writer of {@code target} ({@code WriteTarget#toString}). */
    default void onIdleWriterClosed(String target) {}
}
