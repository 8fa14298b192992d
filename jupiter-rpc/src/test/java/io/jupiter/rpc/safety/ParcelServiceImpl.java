package io.jupiter.rpc.safety;

import java.util.List;

final class ParcelServiceImpl implements ParcelService {

    @Override
    public Parcel send(Parcel parcel) {
        return parcel;
    }

    @Override
    public List<Parcel> sendAll(List<Parcel> parcels) {
        return parcels;
    }

    @Override
    public String describe(Object anything) {
        return String.valueOf(anything);
    }

    @Override
    public Object open(String what) {
        return "contraband".equals(what) ? new Contraband() : what;
    }
}
