Kočka spí na rohožce.
Výsledky studie jsme zveřejnili včera.
Počasí bylo letos velmi špatné, úroda však byla dobrá.
Řekla, že nemůže přijít, jelikož je nemocná.
Se svými rodiči šly děti do zoo.
Nic nenasvědčuje tomu, že by mezi oběma událostmi byla souvislost.
Toto je test.
