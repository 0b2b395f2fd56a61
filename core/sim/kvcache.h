// SPDX-License-Identifier: MIT
#pragma once

#include <QHash>
#include <QtGlobal>

#include <vector>

namespace ServeScope::Sim {

/// Fixed-size KV blocks with reference counts and a block-hash prefix cache. Free blocks form an
/// LRU list: a freed block keeps its hash (and can still be hit) until allocation evicts it.
class KvCache final {
public:
    explicit KvCache(int numBlocks = 0, bool prefixCaching = false);

    int numBlocks() const { return int(m_ref.size()); }
    int freeBlocks() const { return m_free; }
    int usedBlocks() const { return numBlocks() - m_free; }
    bool prefixCaching() const { return m_prefixCaching; }

    /// Takes the least recently freed block; -1 when none is free.
    int allocate();
    /// Drops one reference; at zero the block joins the free list's tail.
    void release(int block);
    /// Returns the cached block holding `hash` with a reference taken, or -1.
    int lookup(quint64 hash);
    /// Publishes a full block's content hash; ignored when the hash is already cached.
    void registerHash(int block, quint64 hash);
    /// Forgets every cached hash (POST /reset_prefix_cache).
    void resetPrefixCache();

private:
    void unlink(int block);
    void pushTail(int block);

    std::vector<int> m_ref, m_prev, m_next;
    std::vector<quint64> m_hash;
    std::vector<bool> m_hasHash;
    QHash<quint64, int> m_byHash;
    int m_head = -1, m_tail = -1, m_free = 0;
    bool m_prefixCaching = false;
};

} // namespace ServeScope::Sim
