#include <glib.h>
int main(int c,char**v){g_test_init(&c,&v,NULL);return g_test_run();}
