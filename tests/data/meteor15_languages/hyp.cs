Kočka sedí na rohožce a spí.
Včera jsme zveřejnili výsledky průzkumu.
Letos bylo počasí velmi špatné, ale úroda byla dobrá.
Řekla, že nemůže přijít, protože je nemocná.
Děti šly se svými rodiči do zoo.
Neexistuje žádný důkaz o souvislosti mezi oběma událostmi.
To je test.
