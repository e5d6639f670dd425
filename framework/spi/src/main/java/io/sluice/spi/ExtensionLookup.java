package io.sluice.spi;

import java.util.List;

/**
 * Finds extensions of any enabled plugin by SPI type and identifier, so one plugin can use
 * another's: a target asks for the format the user named, a bucket assigner, a commit policy.
 *
 * <p>What it returns is already wrapped: calls into it run with the owning plugin's class loader as
 * the thread context class loader.
 */
public interface ExtensionLookup {

    /**
     * The extension of the given type with the given identifier.
     *
     * @throws IllegalArgumentException if none is found; the message lists the identifiers that
     *     exist for the type and the plugins directory searched
     */
    <T extends SluiceFactory> T find(Class<T> type, String identifier);

    /** The identifiers available for an SPI type, sorted. */
    List<String> identifiers(Class<? extends SluiceFactory> type);
}
