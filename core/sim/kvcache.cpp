// SPDX-License-Identifier: MIT
#include "sim/kvcache.h"

namespace ServeScope::Sim {

KvCache::KvCache(int numBlocks, bool prefixCaching)
    : m_ref(size_t(qMax(0, numBlocks)), 0)
    , m_prev(m_ref.size(), -1)
    , m_next(m_ref.size(), -1)
    , m_hash(m_ref.size(), 0)
    , m_hasHash(m_ref.size(), false)
    , m_prefixCaching(prefixCaching)
{
    for (int b = 0; b < int(m_ref.size()); ++b)
        pushTail(b);
}

void KvCache::unlink(int block)
{
    const int p = m_prev[block], n = m_next[block];
    (p >= 0 ? m_next[p] : m_head) = n;
    (n >= 0 ? m_prev[n] : m_tail) = p;
    m_prev[block] = m_next[block] = -1;
    --m_free;
}

void KvCache::pushTail(int block)
{
    m_prev[block] = m_tail;
    m_next[block] = -1;
    (m_tail >= 0 ? m_next[m_tail] : m_head) = block;
    m_tail = block;
    ++m_free;
}

int KvCache::allocate()
{
    const int b = m_head;
    if (b < 0)
        return -1;
    unlink(b);
    if (m_hasHash[b]) {
        const auto it = m_byHash.constFind(m_hash[b]);
        if (it != m_byHash.constEnd() && it.value() == b)
            m_byHash.erase(it);
        m_hasHash[b] = false;
    }
    m_ref[b] = 1;
    return b;
}

void KvCache::release(int block)
{
    if (block < 0 || block >= numBlocks() || m_ref[block] <= 0)
        return;
    if (--m_ref[block] == 0)
        pushTail(block);
}

int KvCache::lookup(quint64 hash)
{
    if (!m_prefixCaching)
        return -1;
    const auto it = m_byHash.constFind(hash);
    if (it == m_byHash.constEnd())
        return -1;
    const int b = it.value();
    if (m_ref[b]++ == 0)
        unlink(b);
    return b;
}

void KvCache::registerHash(int block, quint64 hash)
{
    if (!m_prefixCaching || block < 0 || block >= numBlocks() || m_hasHash[block] || m_byHash.contains(hash))
        return;
    m_hash[block] = hash;
    m_hasHash[block] = true;
    m_byHash.insert(hash, block);
}

void KvCache::resetPrefixCache()
{
    m_byHash.clear();
    std::fill(m_hasHash.begin(), m_hasHash.end(), false);
}

} // namespace ServeScope::Sim
