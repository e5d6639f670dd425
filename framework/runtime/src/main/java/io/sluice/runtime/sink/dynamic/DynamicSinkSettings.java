package io.sluice.runtime.sink.dynamic;

import javax.annotation.Nullable;

import java.io.Serializable;

/** What a dynamic sink's builder set that its operators need on the task: plain values. */
final class DynamicSinkSettings implements Serializable {

    private static final long serialVersionUID = 1L;

    final int cacheMaxSize;
    final long cacheRefreshMs;
    final int inputSchemasPerTableCacheMaxSize;
    final boolean immediateTableUpdate;
    final boolean dropUnusedColumns;

    @Nullable
    final String branch;

    final DynamicTableCreator tableCreator;
    final DynamicSinkHooks hooks;

    DynamicSinkSettings(
            int cacheMaxSize,
            long cacheRefreshMs,
            int inputSchemasPerTableCacheMaxSize,
            boolean immediateTableUpdate,
            boolean dropUnusedColumns,
            @Nullable String branch,
            DynamicTableCreator tableCreator,
            DynamicSinkHooks hooks) {
        this.cacheMaxSize = cacheMaxSize;
        this.cacheRefreshMs = cacheRefreshMs;
        this.inputSchemasPerTableCacheMaxSize = inputSchemasPerTableCacheMaxSize;
        this.immediateTableUpdate = immediateTableUpdate;
        this.dropUnusedColumns = dropUnusedColumns;
        this.branch = branch;
        this.tableCreator = tableCreator;
        this.hooks = hooks;
    }
}
