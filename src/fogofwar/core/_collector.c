/* Setting immutable values aside from Python's cyclic garbage collector: the C form of
 * fogofwar.core.collector.settle (the module's docstring says why).
 *
 * The collector only needs to track objects that can be part of a reference cycle.
 * CPython already stops tracking an exact tuple whose items cannot be (at a collection
 * that finds it so), but never a frozenset: a frozenset of such tuples, though it can
 * never be in a cycle either (it is immutable, and so is all it holds), is walked item
 * by item at every full collection for as long as it lives. settle() stops tracking
 * exact tuples and frozensets whose items, all the way down, are values the collector
 * does not walk (ints, strings, None, ...) or such tuples and frozensets. Anything else
 * (a list, a dict, an instance of a class, a subclass of tuple) is left as it is, and so
 * is every container that holds one.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* Deeper than this is left tracked: a guard on the C stack, far past any value here. */
#define MAX_DEPTH 64

/* 1 if `o` can never be part of a reference cycle (then, if it is a tuple or frozenset,
 * no longer tracked), 0 if it may be, -1 on error. */
static int
settle_one(PyObject *o, int depth)
{
    if (!PyObject_IS_GC(o))
        return 1;
    int tuple = PyTuple_CheckExact(o);
    if (!tuple && !PyFrozenSet_CheckExact(o))
        return 0;
    /* An untracked exact tuple holds only such values (CPython untracks one only then),
     * and so does an untracked frozenset (only this function untracks those). */
    if (!PyObject_GC_IsTracked(o))
        return 1;
    if (depth >= MAX_DEPTH)
        return 0;
    if (tuple) {
        Py_ssize_t n = PyTuple_GET_SIZE(o);
        for (Py_ssize_t i = 0; i < n; i++) {
            int got = settle_one(PyTuple_GET_ITEM(o, i), depth + 1);
            if (got <= 0)
                return got;
        }
    }
    else {
        PyObject *it = PyObject_GetIter(o);
        if (!it)
            return -1;
        PyObject *item;
        int got = 1;
        while (got > 0 && (item = PyIter_Next(it)) != NULL) {
            got = settle_one(item, depth + 1);
            Py_DECREF(item);
        }
        Py_DECREF(it);
        if (got <= 0 || PyErr_Occurred())
            return got <= 0 ? got : -1;
    }
    PyObject_GC_UnTrack(o);
    return 1;
}

static PyObject *
settle(PyObject *self, PyObject *o)
{
    if (settle_one(o, 0) < 0)
        return NULL;
    return Py_NewRef(o);
}

static PyMethodDef methods[] = {
    {"settle", settle, METH_O,
     "settle(value) -> value: stop the cyclic collector tracking `value` and the tuples and\n"
     "frozensets in it, where they hold only values it does not walk (ints, strings, ...)\n"
     "or such tuples and frozensets (fogofwar.core.collector.settle)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_collector",
    .m_doc = "The C form of fogofwar.core.collector.settle.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__collector(void)
{
    return PyModule_Create(&module);
}
