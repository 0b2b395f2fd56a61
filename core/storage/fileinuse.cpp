// SPDX-License-Identifier: MIT
#include "fileinuse.h"

#include <QFile>
#include <QHash>

#include <mutex>

#include <sys/stat.h>

namespace ServeScope {

namespace {

struct FileKey {
    quint64 device = 0;
    quint64 inode = 0;
    bool operator==(const FileKey &o) const { return device == o.device && inode == o.inode; }
};

size_t qHash(const FileKey &key, size_t seed = 0)
{
    return qHashMulti(seed, key.device, key.inode);
}

std::mutex s_mutex;
QHash<FileKey, int> s_held; // guarded by s_mutex

bool keyOf(const QString &path, FileKey *key)
{
    struct stat st { };
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return false;
    *key = { quint64(st.st_dev), quint64(st.st_ino) };
    return true;
}

} // namespace

FileInUse::FileInUse(const QString &path)
{
    FileKey key;
    if (!keyOf(path, &key))
        return; // nothing there yet: SQLite will fail or create it; no lock of ours to lose
    std::lock_guard lock(s_mutex);
    ++s_held[key];
    m_device = key.device;
    m_inode = key.inode;
    m_held = true;
}

FileInUse::~FileInUse()
{
    if (!m_held)
        return;
    std::lock_guard lock(s_mutex);
    const FileKey key { m_device, m_inode };
    if (--s_held[key] == 0)
        s_held.remove(key);
}

bool FileInUse::readUnlessInUse(const QString &path, const std::function<void()> &read)
{
    FileKey key;
    const bool known = keyOf(path, &key);
    std::lock_guard lock(s_mutex);
    if (known && s_held.contains(key))
        return false;
    read();
    return true;
}

} // namespace ServeScope
