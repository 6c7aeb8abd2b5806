#include "memery_guard_pages.h"

#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const uint8_t canary = 0xA5;

static size_t page_size(void) {
    long size = sysconf(_SC_PAGESIZE);
    return size > 0 ? (size_t)size : 4096;
}

int memery_guarded_alloc(memery_guarded *buffer, size_t size) {
    size_t page = page_size();
    size_t data_pages = (size + page - 1) / page;
    if (data_pages == 0) data_pages = 1;
    size_t total = (data_pages + 2) * page;
    uint8_t *mapping = mmap(0, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) return -1;
    if (mprotect(mapping, page, PROT_NONE) != 0 || mprotect(mapping + (data_pages + 1) * page, page, PROT_NONE) != 0) {
        munmap(mapping, total);
        return -1;
    }
    buffer->mapping = mapping;
    buffer->mapping_size = total;
    buffer->size = size;
    buffer->slack = data_pages * page - size;
    buffer->pixels = mapping + page + buffer->slack;
    memset(mapping + page, canary, buffer->slack);
    return 0;
}

void memery_guarded_free(memery_guarded *buffer) {
    if (buffer->mapping) munmap(buffer->mapping, buffer->mapping_size);
    memset(buffer, 0, sizeof *buffer);
}

int memery_guarded_seal(memery_guarded *buffer) {
    size_t page = page_size();
    return mprotect((uint8_t *)buffer->mapping + page, buffer->mapping_size - 2 * page, PROT_READ);
}

int memery_guarded_slack_intact(const memery_guarded *buffer) {
    const uint8_t *start = buffer->pixels - buffer->slack;
    for (size_t i = 0; i < buffer->slack; i++)
        if (start[i] != canary) return 0;
    return 1;
}

/* What the handler reads: written before any plugin code runs, never during a fault. */
static struct watched {
    const memery_guarded *buffer;
    const char *label;
    size_t stride, rows;
} watched[4];

void memery_guard_watch(int slot, const memery_guarded *buffer, const char *label, size_t stride, size_t rows) {
    if (slot < 0 || slot >= 4) return;
    watched[slot].buffer = buffer;
    watched[slot].label = label;
    watched[slot].stride = stride;
    watched[slot].rows = rows;
}

void memery_guard_unwatch(const memery_guarded *buffer) {
    for (int slot = 0; slot < 4; slot++)
        if (watched[slot].buffer == buffer) watched[slot].buffer = 0;
}

/* Async-signal-safe output: write(2) of fixed text and of numbers formatted by hand. */
static void say(const char *text) {
    ssize_t ignored = write(2, text, strlen(text));
    (void)ignored;
}

static void say_number(size_t value) {
    char digits[24];
    int at = (int)sizeof digits;
    digits[--at] = 0;
    do { digits[--at] = (char)('0' + value % 10); value /= 10; } while (value && at > 0);
    say(digits + at);
}

static void say_bytes(size_t count) {
    say_number(count);
    say(count == 1 ? " byte" : " bytes");
}

static void explain(uintptr_t address) {
    size_t page = page_size();
    for (int i = 0; i < 4; i++) {
        const memery_guarded *b = watched[i].buffer;
        if (!b || !b->mapping) continue;
        uintptr_t start = (uintptr_t)b->pixels, end = start + b->size;
        uintptr_t low = (uintptr_t)b->mapping, high = low + b->mapping_size;
        if (address < low || address >= high) continue;
        say(MEMERY_GUARD_MARKER);
        if (address >= end) {
            say("went past the end of ");
            say(watched[i].label);
            say(", to byte ");
            say_number(address - end + 1);
            say(" after it (");
            say_number(watched[i].rows);
            say(watched[i].rows == 1 ? " row of " : " rows of ");
            say_bytes(watched[i].stride);
            say(")\n");
        } else if (address < low + page) {
            say("went before the start of ");
            say(watched[i].label);
            say(" (");
            say_bytes(start - address);
            say(" before its first row)\n");
        } else if (address >= start) {
            size_t offset = address - start;
            say("wrote into ");
            say(watched[i].label);
            say(", which is read-only (row ");
            say_number(watched[i].stride ? offset / watched[i].stride : 0);
            say(")\n");
        } else {
            say("went before the start of ");
            say(watched[i].label);
            say("\n");
        }
        return;
    }
}

static void on_fault(int signal, siginfo_t *info, void *context) {
    (void)context;
    explain((uintptr_t)info->si_addr);
    /* Die of the signal as before: the default action, then the faulting access again. */
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigaction(signal, &fallback, 0);
}

void memery_guard_install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, 0);
    sigaction(SIGBUS, &action, 0);
}
